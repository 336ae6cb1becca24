import { Settings, SettingsChange } from '../../shared/ipc/views.ts';

export type FieldErrors = Partial<Record<keyof Settings, string>>;

const MESSAGES: Partial<Record<keyof Settings, string>> = {
  serviceUrl: 'Enter a full address, such as https://monitor.example.com/api/v1.',
  issuer: 'Enter the identity provider’s address, such as https://accounts.example.com.',
  signUpUrl: 'Enter the sign-up page’s full address, such as https://monitor.example.com/signup, or leave it empty.',
  syncIntervalMinutes: 'Choose a whole number of minutes from 5 to 1440 (one day).',
};

/** The core's own schema decides; the words are ours because zod's are for developers. */
export function validateSettings(patch: SettingsChange): FieldErrors {
  const result = SettingsChange.safeParse(patch);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof Settings | undefined;
    if (field && !errors[field]) errors[field] = MESSAGES[field] ?? issue.message;
  }
  return errors;
}

/** Field errors from the core's `invalid-arguments` answer (`issues[].path` names the field). */
export function fieldErrorsFromIssues(issues: { path: string; message: string }[] | undefined): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues ?? []) {
    const field = issue.path.split('.')[0] as keyof Settings;
    if (field in Settings.shape && !errors[field]) errors[field] = MESSAGES[field] ?? issue.message;
  }
  return errors;
}
