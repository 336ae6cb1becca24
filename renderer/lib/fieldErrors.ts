/** A problem with one input, as zod or the core's `invalid-arguments` answer names it. */
export interface FieldIssue {
  /** Dotted: the field's name first (`baseUrl`, `settings.issuer` would be `settings`). */
  path: string;
  message: string;
}

/**
 * The first problem named for each of `fields`, in the form's own words: `wording` gets the
 * field and the schema's message and returns what the person reads. Issues of other fields (or
 * of the whole input) are left to the form's general message.
 */
export function firstErrorPerField<F extends string>(issues: readonly FieldIssue[], fields: readonly F[], wording: (field: F, message: string) => string): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = fields.find((name) => name === issue.path.split('.')[0]);
    if (field !== undefined && errors[field] === undefined) errors[field] = wording(field, issue.message);
  }
  return errors;
}
