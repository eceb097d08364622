// The inspector page (GET /_mock/ui): the route's path, and its shell and files, loaded at the page's first request
// (a mock nobody opens the inspector of never reads them).
export { INSPECTOR_PATH } from './path.js';

/** The page's shell, headers and built files. */
export const inspectorFiles = () => import('./files.js');
