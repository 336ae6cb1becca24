// Messages between the soak harness and its client worker processes (over the IPC channel).

export type WorkerCommand =
  /** Without `email`: every email the breach affects (how the newer contract resolves). */
  | { id: number; op: 'toggle'; breachId: string; email?: string; dataClass: string; resolved: boolean }
  | { id: number; op: 'sync' }
  | { id: number; op: 'flush' }
  | { id: number; op: 'targets' }
  | { id: number; op: 'state'; keys: string[] }
  | { id: number; op: 'failed' }
  | { id: number; op: 'summary' };

/** A command before the harness numbers it. */
export type WorkerRequest = WorkerCommand extends infer C ? (C extends WorkerCommand ? Omit<C, 'id'> : never) : never;

export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** A breach and email the local store knows, with the breach's data classes. */
export interface Target {
  breachId: string;
  email: string;
  dataClasses: string[];
}

export interface WorkerArgs {
  db: string;
  apiBaseUrl: string;
  serviceOrigin: string;
  sub: string;
  /** Default `v1`; `firefox-v1` speaks `/api/firefox/v1` with details from the service's feed. */
  contract?: 'v1' | 'firefox-v1';
}
