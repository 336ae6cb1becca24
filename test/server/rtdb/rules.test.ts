import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DbPath } from '../../../server/rtdb/paths.ts';
import { compileRules, DEFAULT_RULES, RulesError, type RulesAuth } from '../../../server/rtdb/rules.ts';
import { childOf, withChild, type DbValue } from '../../../server/rtdb/tree.ts';

const alice: RulesAuth = { uid: 'alice', provider: 'password', token: { email: 'alice@example.com', email_verified: true } };

function context(tree: DbValue, auth: RulesAuth | null, write?: { path: DbPath; value: DbValue }) {
  const read = (path: DbPath) => childOf(tree, path);
  const after = write ? withChild(tree, write.path, write.value) : tree;
  return { auth, now: 1_700_000_000_000, read, readNew: (path: DbPath) => childOf(after, path) };
}

const tree: DbValue = {
  catalog: { breaches: { Adobe: { title: 'Adobe' } } },
  users: { alice: { preferences: { theme: 'dark' } }, bob: { preferences: { theme: 'light' } } },
  admins: { alice: true },
};

describe('default rules', () => {
  const rules = compileRules(DEFAULT_RULES);
  it('let anyone read the catalog and no one write it', () => {
    expect(rules.canRead(['catalog', 'breaches', 'Adobe'], context(tree, null))).toBe(true);
    expect(rules.canRead(['catalog'], context(tree, null))).toBe(true);
    expect(rules.canWrite([['catalog', 'breaches', 'X']], context(tree, alice, { path: ['catalog', 'breaches', 'X'], value: { title: 'X' } }))).toBe(false);
  });
  it("give a person their own subtree and nobody else's", () => {
    expect(rules.canRead(['users', 'alice', 'preferences'], context(tree, alice))).toBe(true);
    expect(rules.canRead(['users', 'bob', 'preferences'], context(tree, alice))).toBe(false);
    expect(rules.canRead(['users', 'alice'], context(tree, null))).toBe(false);
    expect(rules.canWrite([['users', 'alice', 'preferences']], context(tree, alice, { path: ['users', 'alice', 'preferences'], value: { theme: 'light' } }))).toBe(true);
    expect(rules.canWrite([['users', 'bob', 'preferences']], context(tree, alice, { path: ['users', 'bob', 'preferences'], value: {} }))).toBe(false);
  });
  it('do not grant a parent from a child rule (rules cascade down, never up)', () => {
    expect(rules.canRead(['users'], context(tree, alice))).toBe(false);
    expect(rules.canRead([], context(tree, alice))).toBe(false);
  });
  it('grant nothing outside the rules', () => {
    expect(rules.canRead(['admins'], context(tree, alice))).toBe(false);
  });
});

describe('expressions', () => {
  const check = (expression: string, auth: RulesAuth | null = alice, path: DbPath = ['users', 'alice', 'preferences']) =>
    compileRules({ rules: { users: { $uid: { preferences: { '.read': expression } } } } }).canRead(path, context(tree, auth));

  it('read data, root, auth.token and wildcards', () => {
    expect(check("data.child('theme').val() === 'dark'")).toBe(true);
    expect(check("root.child('admins/' + auth.uid).exists()")).toBe(true);
    expect(check("root.child('admins').hasChild($uid)")).toBe(true);
    expect(check("data.hasChildren(['theme'])")).toBe(true);
    expect(check("data.hasChildren(['theme', 'nope'])")).toBe(false);
    expect(check('auth.token.email_verified == true && auth.token.email.endsWith("@example.com")')).toBe(true);
    expect(check("data.child('theme').isString() && !data.child('theme').isNumber()")).toBe(true);
    expect(check("data.parent().parent().child('bob/preferences/theme').val() == 'light'")).toBe(true);
    expect(check('now > 1600000000000 ? true : false')).toBe(true);
    expect(check("'Dark'.toLowerCase().beginsWith('da') && 'x-y'.replace('-', '') === 'xy' && 'abc'.length === 3 && 'abc'.contains('b')")).toBe(true);
    expect(check('(2 + 3) * 4 % 7 - 1 === 5 && 10 / 4 === 2.5 && -1 < +1 && 2 >= 2 && 1 <= 1')).toBe(true);
  });

  it('deny when evaluation fails or the answer is not exactly true', () => {
    expect(check('auth.uid === $uid', null)).toBe(false); // no auth: property of null
    expect(check("data.child('theme').val()")).toBe(false); // a string, not true
    expect(check('1 + true === 2')).toBe(false);
    expect(check("'a' < 1")).toBe(false);
    expect(check('auth.constructor != null && auth.toString != null')).toBe(false);
    expect(check("auth['__proto__'] != null")).toBe(false);
    expect(check('data.val.call != null')).toBe(false);
  });

  it('apply newData and .validate on writes, never on deletes', () => {
    const rules = compileRules({
      rules: {
        users: {
          $uid: {
            '.write': 'auth.uid === $uid',
            preferences: {
              '.validate': "newData.hasChildren(['theme'])",
              theme: { '.validate': "newData.isString() && (newData.val() === 'dark' || newData.val() === 'light')" },
            },
          },
        },
      },
    });
    const write = (path: DbPath, value: DbValue) => rules.canWrite([path], context(tree, alice, { path, value }));
    expect(write(['users', 'alice', 'preferences'], { theme: 'light' })).toBe(true);
    expect(write(['users', 'alice', 'preferences'], { theme: 'pink' })).toBe(false);
    expect(write(['users', 'alice', 'preferences'], { other: 1 })).toBe(false);
    expect(write(['users', 'alice', 'preferences', 'theme'], 'dark')).toBe(true);
    expect(write(['users', 'alice', 'preferences', 'theme'], 7)).toBe(false);
    expect(write(['users', 'alice'], { preferences: { theme: 3 } })).toBe(false);
    expect(write(['users', 'alice', 'preferences'], null)).toBe(true);
    expect(write(['users', 'bob', 'preferences'], { theme: 'dark' })).toBe(false);
  });
});

describe('compileRules', () => {
  it.each([
    [{}, 'rules must be an object'],
    [{ rules: { a: { '.read': 1 } } }, '/a/.read must be true, false or an expression string'],
    [{ rules: { a: { '.reed': true } } }, '/a/.reed: unknown rule ".reed"'],
    [{ rules: { a: { $x: {}, $y: {} } } }, 'only one $wildcard per level'],
    [{ rules: { a: { '.read': 'auth.uid ===' } } }, '/a/.read: cannot parse'],
    [{ rules: { a: { '.read': 'process.exit()' } } }, 'unknown method "exit"'],
    [{ rules: { a: { '.read': 'window' } } }, 'unknown variable "window"'],
    [{ rules: { a: { '.read': '$uid === "x"' } } }, 'unknown variable "$uid"'],
    [{ rules: { a: { '.read': 'newData.exists()' } } }, 'newData is only available in .write and .validate'],
    [{ rules: { a: { '.read': 'auth.uid = "x"' } } }, 'a'],
    [{ rules: { a: { '.read': 'data.val() matches /x/' } } }, 'a'],
    [{ rules: { a: 'yes' } }, 'rules at /a must be an object'],
  ])('refuses %j, saying where', (rules, message) => {
    expect(() => compileRules(rules)).toThrow(RulesError);
    expect(() => compileRules(rules)).toThrow(message);
  });

  it('never throws on arbitrary expressions at evaluation time (errors deny)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (expression) => {
        let rules;
        try {
          rules = compileRules({ rules: { x: { '.read': expression } } });
        } catch (error) {
          expect(error).toBeInstanceOf(RulesError);
          return;
        }
        expect(typeof rules.canRead(['x'], context(tree, alice))).toBe('boolean');
      }),
    );
  });
});
