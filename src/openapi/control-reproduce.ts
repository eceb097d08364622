// The answers of the /_mock operations that take a session away: repro bundles, HAR, the client report.
import * as v from 'valibot';

/** GET /_mock/bundle: opaque to clients, who hand it back to PUT /_mock/bundle or createApp({ bundle }). */
export const BundleDocumentSchema = v.looseObject({ format: v.literal('project-runtime-mock/bundle@1') });

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): `log.entries` with request, response and timings. */
export const HarDocumentSchema = v.object({
  log: v.looseObject({
    version: v.literal('1.2'),
    creator: v.object({ name: v.string(), version: v.string() }),
    entries: v.array(v.looseObject({ startedDateTime: v.string(), time: v.number(), request: v.looseObject({}), response: v.looseObject({}) })),
    _journal: v.object({ entries: v.number(), left: v.number() }),
  }),
});

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Severity = v.picklist(['error', 'warning']);

/** GET /_mock/client-report. */
export const ClientReportSchema = v.object({
  findings: v.array(v.object({ rule: v.string(), severity: Severity, message: v.string(), principal: v.string(), entries: v.array(Count) })),
  rules: v.array(v.object({ rule: v.string(), severity: Severity, description: v.string(), checked: Count })),
  journal: v.object({ entries: Count, left: Count }),
});
