// Public face of src/pydantic: field schemas that validate like pydantic v2 (lax mode), models that refuse unknown keys
// (with a did-you-mean), and the translation of a failed check into pydantic's error item.
export { int, float, bool, uuid, datetime, dict, anyJson, model, union } from './schemas.js';
export { strictModel, forbidExtra, withSuggestions, closestKey } from './strict.js';
export { issueToItem } from './issues.js';
