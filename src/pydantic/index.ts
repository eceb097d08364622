// Public face of src/pydantic: field schemas that validate like pydantic v2 (lax mode), and the parsers behind them.
export { int, float, bool, uuid, datetime, dict, anyJson, model, union } from './schemas.js';
export { strictModel, forbidExtra, withSuggestions, closestKey } from './strict.js';
export { issueToItem } from './issues.js';
