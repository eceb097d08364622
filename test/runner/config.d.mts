// Types of config.mjs, for the TypeScript suites.
export declare const DEFAULT_PROPERTY_RUNS: number;
export declare const DEFAULT_TEST_TIMEOUT_MS: number;
export declare const DEFAULT_RUN_TIMEOUT_MS: number;
type Env = Record<string, string | undefined>;
export declare function isCI(env?: Env): boolean;
export declare function propertyRuns(env?: Env): number;
export declare function propertySeed(env?: Env): number;
export declare function shardCount(cores: number, env?: Env): number;
export declare function testTimeoutMs(env?: Env): number;
export declare function runTimeoutMs(env?: Env): number;
export declare function allowedSkips(env?: Env): Set<string>;
