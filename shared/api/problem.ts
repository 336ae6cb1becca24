import { z } from 'zod';

/** One located error of a 400 answer. `pointer` is a JSON Pointer into the body, or `/<name>` of a query parameter. */
export const ProblemFieldError = z
  .object({
    pointer: z.string(),
    message: z.string(),
    parameter: z.string().optional().meta({ description: 'Name of the query parameter, for query errors' }),
  })
  .meta({ id: 'ProblemFieldError' });
export type ProblemFieldError = z.infer<typeof ProblemFieldError>;

/** RFC 9457 problem details (`application/problem+json`). */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(ProblemFieldError).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 6901 pointer from a zod issue path. */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  return path.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** Zod issues as problem `errors`, one per issue, with readable messages. */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): ProblemFieldError[] {
  return issues.map((issue) => ({
    pointer: toJsonPointer([...prefix, ...issue.path]),
    message: issue.message,
  }));
}
