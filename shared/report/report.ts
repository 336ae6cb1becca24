import { z } from 'zod';
import { Breach, IsoDateTime } from '../api/index.ts';
import { CellState } from '../ipc/views.ts';

/**
 * Everything the person has, in one answer: every local breach the sensitive policy shows with
 * each email's state per data class, as the detail pane shows it (server state overlaid with
 * queued changes). The guided fix, the Overview's "what to do next" and the exports read this.
 */
export const ReportBreach = z.object({
  breach: Breach,
  accounts: z.array(z.object({ email: z.string(), cells: z.record(z.string(), CellState) })),
});
export type ReportBreach = z.infer<typeof ReportBreach>;

export const Report = z.object({
  generatedAt: IsoDateTime,
  /** The signed-in account's email, when the provider told it. */
  account: z.string().optional(),
  /**
   * Whether Have I Been Pwned's data is part of this report: true when some breach is not one of
   * the reference service's generated demo catalog (which is ours and credits nobody).
   */
  includesHibp: z.boolean(),
  /** The service said these exposures are invented demo data (`breach-data: demo`): every export and print says so. */
  demo: z.boolean().optional(),
  breaches: z.array(ReportBreach),
  /** Sensitive breaches left out because the person has not opted in (shared/api/sensitive.ts); absent: none. */
  hiddenSensitive: z.int().positive().optional(),
});
export type Report = z.infer<typeof Report>;
