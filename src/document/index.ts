// The face of src/document/: what code outside the folder imports from it (nothing reaches past this file).
export { openApiDocument } from './build.js';
