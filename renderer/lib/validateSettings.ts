import { Settings, SettingsChange } from '../../shared/ipc/views.ts';
import { firstErrorPerField, type FieldIssue } from './fieldErrors.ts';

export type FieldErrors = Partial<Record<keyof Settings, string>>;

const MESSAGES: Partial<Record<keyof Settings, string>> = {
  serviceUrl: 'Enter a full address, such as https://monitor.example.com/api/v1.',
  issuer: 'Enter the identity provider’s address, such as https://accounts.example.com.',
  signUpUrl: 'Enter the sign-up page’s full address, such as https://monitor.example.com/signup, or leave it empty.',
  syncIntervalMinutes: 'Choose a whole number of minutes from 5 to 1440 (one day).',
};

const FIELDS = Object.keys(Settings.shape) as (keyof Settings)[];
const inOurWords = (field: keyof Settings, message: string) => MESSAGES[field] ?? message;

/** The core's own schema decides; the words are ours because zod's are for developers. */
export function validateSettings(patch: SettingsChange): FieldErrors {
  const result = SettingsChange.safeParse(patch);
  if (result.success) return {};
  return firstErrorPerField(
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    FIELDS,
    inOurWords,
  );
}

/** Field errors from the core's `invalid-arguments` answer (`issues[].path` names the field). */
export function fieldErrorsFromIssues(issues: FieldIssue[] | undefined): FieldErrors {
  return firstErrorPerField(issues ?? [], FIELDS, inOurWords);
}
