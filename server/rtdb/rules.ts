import jsep from 'jsep';
import { z } from 'zod';
import { RecordKey } from '../../shared/api/primitives.ts';
import type { DbPath } from './paths.ts';
import { childOf, type DbValue } from './tree.ts';

/**
 * The database's security rules, in the real service's JSON format:
 * `{"rules": {"catalog": {".read": true}, "users": {"$uid": {".read": "auth != null && auth.uid === $uid"}}}}`.
 *
 * No maintained evaluator of this language exists on npm (targaryen, the one there was, has not
 * been released since 2018 and pulls in an old parser), so expressions are parsed by jsep — a
 * well-kept JavaScript expression parser — and evaluated here over a closed set of names and
 * methods: `auth`, `now`, `root`, `data`, `newData`, `$wildcards`; snapshot methods `val`,
 * `child`, `parent`, `exists`, `hasChild`, `hasChildren`, `isString`, `isNumber`, `isBoolean`;
 * string `length`, `contains`, `beginsWith`, `endsWith`, `replace`, `toLowerCase`,
 * `toUpperCase`. Anything else is refused when the rules are loaded, with where it was found.
 * An expression that fails while running (e.g. `auth.uid` without auth) denies, as in the real
 * service. Semantics: `.read`/`.write` grant from the first level on the path that says true
 * (rules cascade down, never up); `.validate` must hold at every written location that has one.
 */

/** The caller as rules see it: `auth` is null without authentication. */
export interface RulesAuth {
  uid: string;
  provider: string;
  token: Record<string, unknown>;
}

export class RulesError extends Error {
  override readonly name = 'RulesError';
}

type Rule = { kind: 'literal'; value: boolean } | { kind: 'expression'; source: string; ast: jsep.Expression };

interface RuleNode {
  read?: Rule;
  write?: Rule;
  validate?: Rule;
  /** `.indexOn`: the children (or `.value`) a query here may order by. */
  indexOn?: readonly string[];
  children: Map<string, RuleNode>;
  wildcard?: { name: string; node: RuleNode };
}

const IndexOn = z.union([z.string().min(1), z.array(z.string().min(1))]);
const RuleValue = z.union([z.boolean(), z.string().min(1)]);
const RulesFile = z.strictObject({ rules: z.record(RecordKey, z.unknown()) });

const GLOBALS = new Set(['auth', 'now', 'root']);
const WRITE_GLOBALS = new Set(['data', 'newData']);
const SNAPSHOT_METHODS = new Set(['val', 'child', 'parent', 'exists', 'hasChild', 'hasChildren', 'isString', 'isNumber', 'isBoolean', 'getPriority']);
const STRING_METHODS = new Set(['contains', 'beginsWith', 'endsWith', 'replace', 'toLowerCase', 'toUpperCase']);
const BINARY = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '&&', '||']);

/** A read-only view of the tree at one location, as rule expressions see it. */
export class RuleSnapshot {
  readonly #read: (path: DbPath) => DbValue;
  readonly path: DbPath;
  constructor(read: (path: DbPath) => DbValue, path: DbPath) {
    this.#read = read;
    this.path = path;
  }
  val(): DbValue {
    return this.#read(this.path);
  }
  child(relative: unknown): RuleSnapshot {
    if (typeof relative !== 'string') throw new TypeError('child() takes a path string');
    return new RuleSnapshot(this.#read, [...this.path, ...relative.split('/').filter(Boolean)]);
  }
  parent(): RuleSnapshot {
    if (this.path.length === 0) throw new TypeError('the root has no parent');
    return new RuleSnapshot(this.#read, this.path.slice(0, -1));
  }
  exists(): boolean {
    return this.val() !== null;
  }
  hasChild(relative: unknown): boolean {
    return this.child(relative).exists();
  }
  hasChildren(keys?: unknown): boolean {
    const value = this.val();
    if (value === null || typeof value !== 'object') return false;
    if (keys === undefined) return Object.keys(value).length > 0;
    if (!Array.isArray(keys)) throw new TypeError('hasChildren() takes an array of keys');
    return keys.every((key) => typeof key === 'string' && childOf(value, key.split('/').filter(Boolean)) !== null);
  }
  isString(): boolean {
    return typeof this.val() === 'string';
  }
  isNumber(): boolean {
    return typeof this.val() === 'number';
  }
  isBoolean(): boolean {
    return typeof this.val() === 'boolean';
  }
  getPriority(): null {
    return null;
  }
}

export interface RuleContext {
  auth: RulesAuth | null;
  now: number;
  /** The tree before the request. */
  read: (path: DbPath) => DbValue;
  /** The tree as it would be after the write (writes only). */
  readNew?: (path: DbPath) => DbValue;
}

export class CompiledRules {
  readonly source: unknown;
  readonly #root: RuleNode;
  constructor(source: unknown, root: RuleNode) {
    this.source = source;
    this.#root = root;
  }

  /** True when some `.read` from the root down to `path` grants it. */
  canRead(path: DbPath, context: RuleContext): boolean {
    return this.#cascade(path, 'read', context);
  }

  /**
   * What a query at `path` may order by: the `.indexOn` of the rules at exactly that location
   * (as in Firebase, an index is defined where the queried children live, not above), child
   * paths normalised to `a/b`.
   */
  indexesAt(path: DbPath): ReadonlySet<string> {
    let node: RuleNode | undefined = this.#root;
    const variables = Object.create(null) as Record<string, string>;
    for (const key of path) {
      if (!node) break;
      node = step(node, key, variables);
    }
    return new Set((node?.indexOn ?? []).map((entry) => (entry === '.value' ? entry : entry.split('/').filter(Boolean).join('/'))));
  }

  /**
   * True when some `.write` from the root down to each written location grants it and every
   * `.validate` on the changed locations (ancestors, the location, everything below it with
   * new data) holds.
   */
  canWrite(paths: readonly DbPath[], context: RuleContext & { readNew: (path: DbPath) => DbValue }): boolean {
    return paths.every((path) => this.#cascade(path, 'write', context) && this.#validates(path, context));
  }

  #cascade(path: DbPath, kind: 'read' | 'write', context: RuleContext): boolean {
    let node: RuleNode | undefined = this.#root;
    const variables = Object.create(null) as Record<string, string>;
    for (let depth = 0; node; depth++) {
      const rule = node[kind];
      if (rule && evaluate(rule, context, path.slice(0, depth), variables)) return true;
      if (depth === path.length) return false;
      node = step(node, path[depth]!, variables);
    }
    return false;
  }

  /**
   * True when no `.write` rule could grant a write at `path` (or, with `below`, anywhere under
   * it: a PATCH or POST), whatever data it carries: what can be refused before its body is read.
   * A rule that would need the body (`newData`), a key not yet known (a `$wildcard` below
   * `path`) or the data under `path` is taken as maybe-granting, so this never refuses a write
   * the full check would allow.
   */
  deniesWriteBeforeBody(path: DbPath, below: boolean, context: RuleContext): boolean {
    let node: RuleNode | undefined = this.#root;
    const variables = Object.create(null) as Record<string, string>;
    const unknownNew = (_path: DbPath): DbValue => {
      throw UNKNOWN;
    };
    for (let depth = 0; node; depth++) {
      if (node.write && evaluateKnown(node.write, { ...context, readNew: unknownNew }, path.slice(0, depth), variables) !== false) return false;
      if (depth === path.length) break;
      node = step(node, path[depth]!, variables);
    }
    if (!node || !below) return true;
    // Below `path` nothing is known of the keys or the data: only rules false whatever they read deny.
    const blind = { ...context, read: unknownNew, readNew: unknownNew };
    const anyMayGrant = (at: RuleNode, bound: Record<string, string>, unbound: string[]): boolean => {
      for (const child of at.children.values()) {
        if (child.write && evaluateKnown(child.write, blind, path, bound, unbound) !== false) return true;
        if (anyMayGrant(child, bound, unbound)) return true;
      }
      if (at.wildcard) {
        const { name, node: child } = at.wildcard;
        if (child.write && evaluateKnown(child.write, blind, path, bound, [...unbound, name]) !== false) return true;
        if (anyMayGrant(child, bound, [...unbound, name])) return true;
      }
      return false;
    };
    return !anyMayGrant(node, variables, []);
  }

  #validates(path: DbPath, context: RuleContext & { readNew: (path: DbPath) => DbValue }): boolean {
    let node: RuleNode | undefined = this.#root;
    const variables = Object.create(null) as Record<string, string>;
    for (let depth = 0; depth < path.length && node; depth++) {
      if (!validateAt(node, context, path.slice(0, depth), variables)) return false;
      node = step(node, path[depth]!, variables);
    }
    if (!node) return true;
    // The location and everything below it that the write gives a value.
    const below = (at: RuleNode, location: DbPath, vars: Record<string, string>): boolean => {
      if (!validateAt(at, context, location, vars)) return false;
      const value = context.readNew(location);
      if (value === null || typeof value !== 'object') return true;
      for (const key of Object.keys(value)) {
        const scoped = Object.assign(Object.create(null) as Record<string, string>, vars);
        const child = step(at, key, scoped);
        if (child && !below(child, [...location, key], scoped)) return false;
      }
      return true;
    };
    return below(node, path, variables);
  }
}

function step(node: RuleNode, key: string, variables: Record<string, string>): RuleNode | undefined {
  const exact = node.children.get(key);
  if (exact) return exact;
  if (node.wildcard) {
    variables[node.wildcard.name] = key;
    return node.wildcard.node;
  }
  return undefined;
}

function validateAt(node: RuleNode, context: RuleContext & { readNew: (path: DbPath) => DbValue }, location: DbPath, variables: Record<string, string>): boolean {
  if (!node.validate) return true;
  // Deleting data is never refused by `.validate` (the real service skips null new data).
  if (context.readNew(location) === null) return true;
  return evaluate(node.validate, context, location, variables);
}

/** Parses and checks a rules document; throws `RulesError` saying what is wrong where. */
export function compileRules(json: unknown): CompiledRules {
  const parsed = RulesFile.safeParse(json);
  if (!parsed.success) throw new RulesError('rules must be an object {"rules": {...}} and nothing else');
  return new CompiledRules(json, compileNode(parsed.data.rules, [], new Set()));
}

function compileNode(raw: unknown, at: string[], wildcards: Set<string>): RuleNode {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RulesError(`rules at /${at.join('/')} must be an object`);
  const node: RuleNode = { children: new Map() };
  for (const [key, value] of Object.entries(raw)) {
    const where = `/${[...at, key].join('/')}`;
    if (key === '.read' || key === '.write' || key === '.validate') {
      const rule = RuleValue.safeParse(value);
      if (!rule.success) throw new RulesError(`${where} must be true, false or an expression string`);
      node[key.slice(1) as 'read' | 'write' | 'validate'] = compileRule(rule.data, where, wildcards, key !== '.read');
    } else if (key === '.indexOn') {
      const index = IndexOn.safeParse(value);
      if (!index.success) throw new RulesError(`${where} must be a child path or ".value", or an array of them`);
      node.indexOn = typeof index.data === 'string' ? [index.data] : index.data;
    } else if (key.startsWith('.')) {
      throw new RulesError(`${where}: unknown rule "${key}" (expected .read, .write, .validate or .indexOn)`);
    } else if (key.startsWith('$')) {
      if (node.wildcard) throw new RulesError(`${where}: only one $wildcard per level (already ${node.wildcard.name})`);
      if (wildcards.has(key)) throw new RulesError(`${where}: ${key} is already used above`);
      node.wildcard = { name: key, node: compileNode(value, [...at, key], new Set([...wildcards, key])) };
    } else {
      node.children.set(key, compileNode(value, [...at, key], wildcards));
    }
  }
  return node;
}

function compileRule(value: boolean | string, where: string, wildcards: Set<string>, isWrite: boolean): Rule {
  if (typeof value === 'boolean') return { kind: 'literal', value };
  let ast: jsep.Expression;
  try {
    ast = jsep(value);
  } catch (error) {
    throw new RulesError(`${where}: cannot parse "${value}": ${(error as Error).message}`);
  }
  checkNode(ast, (message) => new RulesError(`${where}: ${message} in "${value}"`), wildcards, isWrite);
  return { kind: 'expression', source: value, ast };
}

function checkNode(node: jsep.Expression, fail: (message: string) => RulesError, wildcards: Set<string>, isWrite: boolean): void {
  const check = (child: jsep.Expression) => checkNode(child, fail, wildcards, isWrite);
  switch (node.type) {
    case 'Literal':
      if ((node as jsep.Literal).value instanceof RegExp) throw fail('regular expressions are not supported');
      return;
    case 'Identifier': {
      const { name } = node as jsep.Identifier;
      if (GLOBALS.has(name) || wildcards.has(name)) return;
      if (WRITE_GLOBALS.has(name)) {
        if (name === 'newData' && !isWrite) throw fail('newData is only available in .write and .validate');
        return;
      }
      throw fail(`unknown variable "${name}"`);
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      check(member.object);
      if (member.computed) check(member.property);
      else if (member.property.type !== 'Identifier') throw fail('bad property access');
      return;
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      if (call.callee.type !== 'MemberExpression' || (call.callee as jsep.MemberExpression).computed) throw fail('only methods can be called');
      const name = ((call.callee as jsep.MemberExpression).property as jsep.Identifier).name;
      if (!SNAPSHOT_METHODS.has(name) && !STRING_METHODS.has(name)) throw fail(`unknown method "${name}"`);
      check((call.callee as jsep.MemberExpression).object);
      call.arguments.forEach(check);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!['!', '-', '+'].includes(unary.operator)) throw fail(`operator "${unary.operator}" is not supported`);
      check(unary.argument);
      return;
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY.has(binary.operator)) throw fail(`operator "${binary.operator}" is not supported`);
      check(binary.left);
      check(binary.right);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      check(conditional.test);
      check(conditional.consequent);
      check(conditional.alternate);
      return;
    }
    case 'ArrayExpression':
      for (const element of (node as jsep.ArrayExpression).elements) {
        if (!element) throw fail('arrays must not have holes');
        check(element);
      }
      return;
    default:
      throw fail(`"${node.type}" is not allowed`);
  }
}

/** Thrown by a read whose answer is not known yet (the body of a write not yet read, a key not yet named). */
const UNKNOWN = Symbol('not known before the body is read');

/** `evaluate`, but 'unknown' when the answer depends on something not known yet (see {@link UNKNOWN}). */
function evaluateKnown(rule: Rule, context: RuleContext, location: DbPath, variables: Record<string, string>, unbound: readonly string[] = []): boolean | 'unknown' {
  if (rule.kind === 'literal') return rule.value;
  const scope = buildScope(context, location, variables);
  for (const name of unbound)
    Object.defineProperty(scope, name, {
      enumerable: true,
      get() {
        throw UNKNOWN;
      },
    });
  try {
    return run(rule.ast, scope) === true;
  } catch (error) {
    return error === UNKNOWN ? 'unknown' : false;
  }
}

function buildScope(context: RuleContext, location: DbPath, variables: Record<string, string>): Record<string, unknown> {
  const scope: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  scope.auth = context.auth;
  scope.now = context.now;
  scope.root = new RuleSnapshot(context.read, []);
  scope.data = new RuleSnapshot(context.read, location);
  if (context.readNew) scope.newData = new RuleSnapshot(context.readNew, location);
  for (const [name, value] of Object.entries(variables)) scope[name] = value;
  return scope;
}

/** True only when the rule says exactly true; errors deny. */
function evaluate(rule: Rule, context: RuleContext, location: DbPath, variables: Record<string, string>): boolean {
  if (rule.kind === 'literal') return rule.value;
  const scope = buildScope(context, location, variables);
  try {
    return run(rule.ast, scope) === true;
  } catch {
    return false;
  }
}

function run(node: jsep.Expression, scope: Record<string, unknown>): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier': {
      const { name } = node as jsep.Identifier;
      if (!Object.hasOwn(scope, name)) throw new ReferenceError(`${name} is not available here`);
      return scope[name];
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const object = run(member.object, scope);
      const key = member.computed ? run(member.property, scope) : (member.property as jsep.Identifier).name;
      return property(object, key);
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee as jsep.MemberExpression;
      const target = run(callee.object, scope);
      const name = (callee.property as jsep.Identifier).name;
      const args = call.arguments.map((argument) => run(argument, scope));
      return callMethod(target, name, args);
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const value = run(unary.argument, scope);
      if (unary.operator === '!') return !asBoolean(value);
      const number = asNumber(value);
      return unary.operator === '-' ? -number : number;
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const binary = node as jsep.BinaryExpression;
      if (binary.operator === '&&') return asBoolean(run(binary.left, scope)) && asBoolean(run(binary.right, scope));
      if (binary.operator === '||') return asBoolean(run(binary.left, scope)) || asBoolean(run(binary.right, scope));
      return binaryOperation(binary.operator, run(binary.left, scope), run(binary.right, scope));
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return asBoolean(run(conditional.test, scope)) ? run(conditional.consequent, scope) : run(conditional.alternate, scope);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) => run(element!, scope));
    default:
      throw new TypeError(`${node.type} is not allowed`);
  }
}

/** Own data properties of plain values only: no prototype walks, no functions. */
function property(object: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') throw new TypeError('property names are strings or numbers');
  if (typeof object === 'string') {
    if (key === 'length') return object.length;
    throw new TypeError(`strings have no property ${key}`);
  }
  if (object === null || typeof object !== 'object' || object instanceof RuleSnapshot) throw new TypeError(`no property ${key} here`);
  const name = String(key);
  if (!Object.hasOwn(object, name)) return null;
  const value = (object as Record<string, unknown>)[name];
  return typeof value === 'function' ? null : value;
}

function callMethod(target: unknown, name: string, args: unknown[]): unknown {
  if (target instanceof RuleSnapshot && SNAPSHOT_METHODS.has(name)) {
    const method = target[name as 'val'] as (...a: unknown[]) => unknown;
    return method.apply(target, args);
  }
  if (typeof target === 'string' && STRING_METHODS.has(name)) {
    const text = (index: number) => {
      const value = args[index];
      if (typeof value !== 'string') throw new TypeError(`${name}() takes strings`);
      return value;
    };
    switch (name) {
      case 'contains':
        return target.includes(text(0));
      case 'beginsWith':
        return target.startsWith(text(0));
      case 'endsWith':
        return target.endsWith(text(0));
      case 'replace':
        return target.replaceAll(text(0), text(1));
      case 'toLowerCase':
        return target.toLowerCase();
      case 'toUpperCase':
        return target.toUpperCase();
    }
  }
  throw new TypeError(`${name}() cannot be called on this value`);
}

function binaryOperation(operator: string, left: unknown, right: unknown): unknown {
  switch (operator) {
    // The rules language has no loose equality: == is ===.
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    case '+':
      if (typeof left === 'string' || typeof right === 'string') {
        if (!['string', 'number'].includes(typeof left) || !['string', 'number'].includes(typeof right)) throw new TypeError('+ joins strings and numbers only');
        return String(left) + String(right);
      }
      return asNumber(left) + asNumber(right);
    case '-':
      return asNumber(left) - asNumber(right);
    case '*':
      return asNumber(left) * asNumber(right);
    case '/':
      return asNumber(left) / asNumber(right);
    case '%':
      return asNumber(left) % asNumber(right);
    default: {
      const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
      if (!comparable) throw new TypeError(`${operator} compares two numbers or two strings`);
      const l = left as number | string;
      const r = right as number | string;
      return operator === '<' ? l < r : operator === '<=' ? l <= r : operator === '>' ? l > r : l >= r;
    }
  }
}

function asBoolean(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError('expected a boolean');
  return value;
}

function asNumber(value: unknown): number {
  if (typeof value !== 'number') throw new TypeError('expected a number');
  return value;
}

/**
 * Default rules: the catalog is public to read and written by no one (service accounts and
 * secrets bypass rules), its breaches indexed for the queries a reader asks ("the biggest",
 * "the newest"); each person's own subtree is theirs alone.
 */
export const DEFAULT_RULES = {
  rules: {
    catalog: { '.read': true, '.write': false, breaches: { '.indexOn': ['pwnCount', 'addedDate', 'breachDate', 'modifiedDate'] } },
    users: {
      $uid: {
        '.read': 'auth != null && auth.uid === $uid',
        '.write': 'auth != null && auth.uid === $uid',
      },
    },
  },
} as const;
