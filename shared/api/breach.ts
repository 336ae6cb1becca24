import { z } from 'zod';
import { Email, IsoDate, IsoDateTime } from './primitives.ts';

/** A breach record, as served by `GET /user/breaches` (all fields required). */
export const Breach = z
  .object({
    id: z.string().min(1).meta({ description: 'Unique breach identifier (the catalog name, e.g. `Adobe`)' }),
    domain: z.string().meta({ description: 'Domain of the primary site the breach occurred on; empty when the source names none' }),
    breachDate: IsoDate.meta({ description: 'Approximate date of the breach' }),
    addedDate: IsoDateTime.meta({ description: 'When the breach was added, minute precision' }),
    modifiedDate: IsoDateTime.meta({ description: 'Last change of the breach, minute precision; >= addedDate' }),
    dataClasses: z.array(z.string().min(1)).meta({ description: 'Alphabetically ordered names of the compromised data classes' }),
    isSensitive: z.boolean(),
  })
  .refine((b) => Date.parse(b.modifiedDate) >= Date.parse(b.addedDate), {
    message: 'modifiedDate must not be before addedDate',
    path: ['modifiedDate'],
  })
  .meta({ id: 'Breach' });
export type Breach = z.infer<typeof Breach>;

/** The state of one resolved data class; `resolvedAt` may be absent on other servers. */
export const ResolvedDataClass = z.object({ resolvedAt: IsoDateTime.optional() }).meta({ id: 'ResolvedDataClass' });
export type ResolvedDataClass = z.infer<typeof ResolvedDataClass>;

export const UserBreachState = z
  .object({
    email: Email.meta({ description: 'The impacted monitored address' }),
    resolvedDataClasses: z.record(z.string(), ResolvedDataClass).meta({ description: "Data classes resolved by the user, keyed by the breach's own spelling of each" }),
  })
  .meta({ id: 'UserBreachState' });
export type UserBreachState = z.infer<typeof UserBreachState>;

export const UserBreach = z
  .object({
    breach: Breach,
    breachedAccounts: z.array(UserBreachState),
    removedFromCatalogAt: IsoDateTime.optional().meta({
      description:
        "Present when the breach has left the service's catalog since these addresses were found in it: `breach` keeps its last known fields, the resolutions stay and can still be changed. Absent for breaches in the catalog (older clients ignore it).",
    }),
  })
  .meta({ id: 'UserBreach' });
export type UserBreach = z.infer<typeof UserBreach>;

export const UserBreachList = z.array(UserBreach).meta({ id: 'UserBreachList' });
export type UserBreachList = z.infer<typeof UserBreachList>;

/** Body of `POST /user` responses (CONTRACT.md: 201 created, 202 existed). */
export const MonitoringUser = z.object({ emails: z.array(Email).meta({ description: 'The monitored email addresses of this user' }) }).meta({ id: 'MonitoringUser' });
export type MonitoringUser = z.infer<typeof MonitoringUser>;

/** Request limits decided in CONTRACT.md. */
export const Limits = {
  maxBodyBytes: 1024 * 1024,
  maxItems: 1000,
  maxDataClassesPerItem: 100,
  maxEmailsPerItem: 1000,
  maxMonitoredEmails: 20,
} as const;
