// A private PostgreSQL server in a temporary folder, for tests and benchmarks: its own data
// folder, a free loopback port, its unix socket in the same folder, no system service. PostgreSQL
// refuses to run as root, so as root the folder is handed to the `postgres` system user and the
// server's programs run as that user (runuser).
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  port: number;
  dir: string;
  /** A new, empty database on this server; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server the way a crash would (`immediate`: no checkpoint, connections cut). */
  kill(): Promise<void>;
  /** Starts it again after `kill` on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** The newest installed server's programs (Debian keeps them out of PATH). */
export function postgresBinDir(): string | undefined {
  const fromEnv = process.env.BREACH_POSTGRES_BIN;
  if (fromEnv) return existsSync(path.join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let counter = 0;

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb; `apt-get install postgresql`, or set BREACH_POSTGRES_BIN)');
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'bm-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const exec = (program: string, args: string[]) => {
    const file = path.join(bin, program);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  };
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", '-c max_connections=200', '-c fsync=off', '-c full_page_writes=off'].join(' ');
  const start = () => exec('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
  try {
    await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
    await start();
  } catch (error) {
    const log = existsSync(path.join(dir, 'server.log')) ? readFileSync(path.join(dir, 'server.log'), 'utf8').slice(-2000) : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a private PostgreSQL server: ${(error as Error).message}${log ? `\n${log}` : ''}`, { cause: error });
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = true;
  return {
    url,
    port,
    dir,
    async createDatabase(name = `t${process.pid}_${++counter}_${Date.now().toString(36)}`) {
      await exec('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-qc', `CREATE DATABASE "${name}"`]);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async kill() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      running = false;
    },
    async restart() {
      await start();
      running = true;
    },
    async close() {
      if (running) await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
    throw new Error('running as root and there is no `postgres` system user to run PostgreSQL as');
  });
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}
