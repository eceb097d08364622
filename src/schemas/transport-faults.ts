// The transport faults, one row per kind: the fault schema's list, the injectors' table (control/faults/transport) and
// the inspector's form all derive from it, so a kind cannot be accepted and not injected, or injected and not offered.
// Plain data with no imports: the inspector page (a browser bundle) reads it too.

/** Each kind, and whether it takes `bytes_per_s` (the pace of its body). */
export const TRANSPORT_FAULT_KINDS = {
  reset: { paced: false },
  hang: { paced: false },
  truncate: { paced: false },
  malformed_json: { paced: false },
  slow_body: { paced: true },
} as const;

export type TransportKind = keyof typeof TRANSPORT_FAULT_KINDS;

/** The kinds in the table's order (the schema's picklist, the form's options). */
export const TRANSPORT_FAULTS = Object.keys(TRANSPORT_FAULT_KINDS) as [TransportKind, ...TransportKind[]];

/** The kind that takes `bytes_per_s` (a paced body). */
export const PACED_TRANSPORT = TRANSPORT_FAULTS.find((k) => TRANSPORT_FAULT_KINDS[k].paced)!;
