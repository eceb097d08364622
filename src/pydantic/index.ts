// Public face of src/pydantic: field schemas that validate like pydantic v2 (lax mode), and the parsers behind them.
export { int, float, bool, uuid, datetime, dict, anyJson, model, union, addPydanticIssue, type PydanticSchema } from './schemas.js';
export { strictModel, forbidExtra, withSuggestions, closestKey } from './strict.js';
export { MAX_INT } from './numbers.js';
export { parseUuid } from './uuid.js';
export { parseDatetime } from './datetime.js';
export { pyRepr, pyStrRepr, pyOrList } from './repr.js';
export { issueToItem, type RawItem } from './issues.js';
