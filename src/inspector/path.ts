// Where the inspector page is served: the route's path, which the page's shell also links its files under.
export const INSPECTOR_PATH = '/_mock/ui';
