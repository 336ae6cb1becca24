import { dataClassKey } from '../api/primitives.ts';
import { FIX_GROUPS, type FixGroupId, type FixGroupSpec, type FixStep } from './fixSteps.ts';
import type { Report, ReportBreach } from './report.ts';

export * from './fixSteps.ts';

const GROUP_BY_CLASS = new Map<string, FixGroupId>(FIX_GROUPS.flatMap((group) => group.dataClasses.map((name) => [dataClassKey(name), group.id] as const)));

/** The group a data class belongs to (any spelling of it: display name, casing, slug); unknown classes are "everything else". */
export function fixGroupOf(dataClass: string): FixGroupId {
  return GROUP_BY_CLASS.get(dataClassKey(dataClass)) ?? 'other';
}

export function fixGroupSpec(id: FixGroupId): FixGroupSpec {
  return FIX_GROUPS.find((group) => group.id === id) ?? FIX_GROUPS[FIX_GROUPS.length - 1]!;
}

/** One breach's part of a group: its classes of that group and who still has them unresolved. */
export interface FixTarget {
  breach: ReportBreach['breach'];
  /** The breach's data classes in this group (its own spelling). */
  dataClasses: string[];
  /** Per email of the breach: the classes of this group still unresolved for it. */
  unresolvedByEmail: { email: string; dataClasses: string[] }[];
  /** Unresolved (email, data class) pairs. */
  unresolved: number;
  /** (email, data class) pairs in total. */
  total: number;
}

export interface FixGroupState {
  id: FixGroupId;
  spec: FixGroupSpec;
  targets: FixTarget[];
  unresolved: number;
  total: number;
}

function targetOf(item: ReportBreach, group: FixGroupId): FixTarget | undefined {
  const dataClasses = item.breach.dataClasses.filter((name) => fixGroupOf(name) === group);
  if (dataClasses.length === 0 || item.accounts.length === 0) return undefined;
  const unresolvedByEmail = item.accounts.map((account) => ({ email: account.email, dataClasses: dataClasses.filter((name) => !account.cells[name]?.resolved) }));
  const unresolved = unresolvedByEmail.reduce((sum, entry) => sum + entry.dataClasses.length, 0);
  return { breach: item.breach, dataClasses, unresolvedByEmail, unresolved, total: dataClasses.length * item.accounts.length };
}

/**
 * The groups in the order people should act (high risk first), each with the breaches it
 * concerns. `breachId` narrows to one breach (the fix flow from its detail).
 */
export function fixGroups(report: Report, options: { breachId?: string } = {}): FixGroupState[] {
  const breaches = options.breachId === undefined ? report.breaches : report.breaches.filter((item) => item.breach.id === options.breachId);
  return FIX_GROUPS.map((spec) => {
    const targets = breaches.map((item) => targetOf(item, spec.id)).filter((target) => target !== undefined);
    return {
      id: spec.id,
      spec,
      targets,
      unresolved: targets.reduce((sum, target) => sum + target.unresolved, 0),
      total: targets.reduce((sum, target) => sum + target.total, 0),
    };
  }).filter((group) => group.total > 0);
}

/** The most urgent group with something left to do, or undefined when everything is fixed. */
export function nextFix(report: Report): FixGroupState | undefined {
  return fixGroups(report).find((group) => group.unresolved > 0);
}

/** The steps of a group that apply to these breaches' data classes, with `{site}` filled in. */
export function stepsFor(spec: FixGroupSpec, targets: readonly Pick<FixTarget, 'breach' | 'dataClasses'>[]): (FixStep & { site?: string })[] {
  const present = new Set(targets.flatMap((target) => target.dataClasses.map(dataClassKey)));
  const domains = [...new Set(targets.map((target) => target.breach.domain).filter((domain) => domain !== ''))];
  const siteWords = targets.length > 1 ? 'each site below' : (domains[0] ?? 'the breached site');
  // One link to the site per group: the first step done there (several "Open x" links would read as one).
  let linked = false;
  return spec.steps
    .filter((step) => !step.when || step.when.some((name) => present.has(dataClassKey(name))))
    .map((step) => {
      const link = !linked && step.linkToSite && targets.length === 1 && domains[0] !== undefined;
      if (link) linked = true;
      return { ...step, text: step.text.replaceAll('{site}', siteWords), ...(link ? { site: domains[0] } : {}) };
    });
}

/** A resolution intent as the `fix-apply` channel takes it. */
export interface FixIntent {
  breachId: string;
  emails: string[];
  dataClasses: string[];
}

/**
 * What "done" sends: for each breach and chosen email, only the group's classes still
 * unresolved for that email (so the count shown is the count that changes). Emails with the
 * same classes of one breach share an intent.
 */
export function fixIntents(targets: readonly FixTarget[], emails: ReadonlySet<string>): FixIntent[] {
  const intents: FixIntent[] = [];
  for (const target of targets) {
    const byClasses = new Map<string, FixIntent>();
    for (const entry of target.unresolvedByEmail) {
      if (!emails.has(entry.email) || entry.dataClasses.length === 0) continue;
      const key = entry.dataClasses.join('\u0000');
      const intent = byClasses.get(key);
      if (intent) intent.emails.push(entry.email);
      else byClasses.set(key, { breachId: target.breach.id, emails: [entry.email], dataClasses: [...entry.dataClasses] });
    }
    intents.push(...byClasses.values());
  }
  return intents;
}

/** How many (email, data class) pairs the intents change. */
export function intentSize(intents: readonly FixIntent[]): number {
  return intents.reduce((sum, intent) => sum + intent.emails.length * intent.dataClasses.length, 0);
}
