// The server's flags, declared once, read from the command line and from PRM_* environment variables by one rule.
import { parseArgs } from 'node:util';
import { closestKey } from './pydantic/index.js';
import { fail } from './cli-output.js';
import { SHADOW_USAGE } from './shadow/index.js';

export const USAGE = `Usage: project-runtime-mock [options]
  --port N             port to listen on (default 4010; 0 picks a free one)
  --host HOST          interface to bind (default 127.0.0.1)
  --data PATH          JSON data file (default .data/db.json)
  --memory             keep state in memory only (no data file)
  --database URL       keep state in PostgreSQL (postgres://user:pass@host:port/db); instances on one database share it
  --fixtures PATH      fixture document to seed from (default: the bundled demo)
  --admin-key KEY      admin key accepted in X-Admin-Key (default: the fixture's)
  --broker-secret S    HMAC secret of the broker webhook (default: the fixture's)
  --auth on|off        off accepts every request as an owner (default on)
  --no-control         do not serve the /_mock control surface
  --control-token T    every /_mock request must send header X-Mock-Control-Token: T
  --allowed-host HOST  a Host name /_mock answers to besides loopback and --host (repeatable; * = any)
  --reset              reseed an existing data file from the fixtures
  --bundle FILE        start from a repro bundle (GET /_mock/bundle): state, clock, simulation, faults, journal
  --seed S             seed ids and tokens, so bundles and exported tests replay elsewhere
  --seal-key KEY       the key sealing secrets in exported state, bundles and tests (default: PRM_SEAL_KEY, else random)
  --simulation MODE    auto, step or off: how simulated runs, jobs and spend move (default auto)
  --speed N            run the clock N times as fast as real time (a fixture's frozen clock starts from its now)
  --traffic N          synthetic chat traffic: N messages an hour on each chat binding of the fixture
  --retain-days N      remove runs the simulation created N simulated days after they ended; 0 keeps all
                       (default: the fixture's or data file's, else 7 with --speed or --traffic, else 0)
${SHADOW_USAGE}
  --sandbox-ttl MS     drop a sandbox this long after its last request (default 3600000: an hour)
  --max-sandboxes N    at most N sandboxes live at once (default 1000)
  --headers-timeout-ms N  cut off a client whose request headers take longer (default 10000)
  --request-timeout-ms N  cut off a client whose whole request takes longer (default 30000)
  -v, --version        print the version and exit
  -h, --help           show this help
Every option but --help and --version may come from the environment instead: PRM_ and its name in capitals with _ for
-, as PRM_SPEED=300 or PRM_CONTROL_TOKEN=T; a switch takes true or false (1 or 0), --allowed-host a comma-separated
list. The command line wins over the environment; an empty variable counts as unset; an unknown PRM_ variable is refused.
Subcommand: project-runtime-mock coverage --url URL [--fail-under PCT] [--require OP:STATUS[:REASON] ...] [--junit FILE] [--markdown FILE]
Subcommand: project-runtime-mock conformance --target URL [--token T] [--admin-key K] [--project ID] [--disposable-project ID] [--write] [--dry-run] [--json FILE] [--junit FILE] [--markdown FILE]`;

const OPTIONS = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  data: { type: 'string' },
  memory: { type: 'boolean', default: false },
  database: { type: 'string' },
  fixtures: { type: 'string' },
  'admin-key': { type: 'string' },
  'broker-secret': { type: 'string' },
  auth: { type: 'string', default: 'on' },
  'no-control': { type: 'boolean', default: false },
  'control-token': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true, default: [] as string[] },
  reset: { type: 'boolean', default: false },
  bundle: { type: 'string' },
  seed: { type: 'string' },
  'seal-key': { type: 'string' },
  simulation: { type: 'string' },
  speed: { type: 'string' },
  traffic: { type: 'string' },
  'retain-days': { type: 'string' },
  shadow: { type: 'string' },
  'shadow-token': { type: 'string' },
  'shadow-writes': { type: 'boolean' },
  'disposable-project': { type: 'string' },
  'sandbox-ttl': { type: 'string', default: '3600000' },
  'max-sandboxes': { type: 'string', default: '1000' },
  'headers-timeout-ms': { type: 'string', default: '10000' },
  'request-timeout-ms': { type: 'string', default: '30000' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

type Name = keyof typeof OPTIONS;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>['values'];

/** Actions, not settings: an environment variable never makes the server print and exit. */
const ACTIONS: readonly Name[] = ['help', 'version'];
const ENV_PREFIX = 'PRM_';

/** The one rule from a flag to its variable: `--control-token` -> `PRM_CONTROL_TOKEN`. */
export const envName = (flag: string): string => ENV_PREFIX + flag.toUpperCase().replaceAll('-', '_');

/** Every variable the server reads, by name. */
export const ENV_FLAGS: ReadonlyMap<string, Name> = new Map((Object.keys(OPTIONS) as Name[]).filter((n) => !ACTIONS.includes(n)).map((n) => [envName(n), n]));

export interface Flags {
  values: Values;
  /** A message about flags with each flag named as the user gave it: `--speed` or `PRM_SPEED`. */
  named(message: string): string;
}

/** One variable's value as its flag's type, or a one-line reason naming the variable. */
function fromEnv(variable: string, name: Name, raw: string): { value: string | boolean | string[] } | { error: string } {
  const option: { type: string; multiple?: boolean } = OPTIONS[name];
  if (option.type === 'boolean') {
    const value = { true: true, 1: true, false: false, 0: false }[raw.trim().toLowerCase()];
    return value === undefined ? { error: `${variable} must be true or false (or 1 or 0), got ${raw}` } : { value };
  }
  if (option.multiple)
    return {
      value: raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    };
  return { value: raw };
}

/**
 * The flags of the command line over those of the environment, then the defaults. An unknown or unreadable PRM_
 * variable, like an unknown flag, ends the process with exit 2 and a line naming it.
 */
export function readFlags(argv: readonly string[], env: NodeJS.ProcessEnv): Flags {
  let given: Partial<Values>;
  try {
    // Parsed without defaults, so what the command line named is known.
    const bare = Object.fromEntries(Object.entries(OPTIONS).map(([k, o]) => [k, Object.fromEntries(Object.entries(o).filter(([key]) => key !== 'default'))]));
    given = parseArgs({ args: [...argv], options: bare as unknown as typeof OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
  const sourced = new Set<string>();
  const merged: Record<string, unknown> = { ...given };
  const problems: string[] = [];
  for (const [variable, raw] of Object.entries(env)) {
    if (!variable.startsWith(ENV_PREFIX) || raw === undefined || raw === '') continue;
    const name = ENV_FLAGS.get(variable);
    if (name === undefined) {
      const near = closestKey(variable, [...ENV_FLAGS.keys()]);
      problems.push(`unknown environment variable ${variable}${near ? ` (did you mean ${near}?)` : ''}`);
      continue;
    }
    const read = fromEnv(variable, name, raw);
    if ('error' in read) problems.push(read.error);
    else if (given[name] === undefined) {
      merged[name] = read.value;
      sourced.add(name);
    }
  }
  if (problems.length > 0)
    fail(`${problems.sort().join('; ')}\n(every option but --help and --version may be set as ${envName('option-name')}; see --help)`, 2);
  for (const [name, option] of Object.entries(OPTIONS) as [string, { default?: unknown }][]) if (merged[name] === undefined) merged[name] = option.default;
  return {
    values: merged as Values,
    named: (message) => message.replace(/--([a-z][a-z-]*)/g, (flag, name: string) => (sourced.has(name) ? envName(name) : flag)),
  };
}
