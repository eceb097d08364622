// The floors of src/ (docs/architecture.md), held by dependency-cruiser: an import goes only down this list, never
// closes a circle (type-only imports count), and reaches into another folder only through its index.ts.
const UNITS = [
  // 1. The command line, and conformance (it starts mocks of its own, so it stands above the app).
  ['cli', '^src/(cli|cli-flags|cli-output|conformance-command|coverage-command)\\.ts$'],
  ['conformance', '^src/conformance/'],
  // 2. The package's face and the assembly.
  ['index', '^src/index\\.ts$'],
  ['app', '^src/app\\.ts$'],
  ['server', '^src/server\\.ts$'],
  ['mock', '^src/(mock|app-options)\\.ts$'],
  // 3. The request path: the sandbox registry, the middleware, the routes (and the pipeline), the declarations.
  ['sandboxes', '^src/sandboxes/'],
  ['middleware', '^src/middleware/'],
  ['routes', '^src/routes/'],
  ['document', '^src/document/'],
  ['operations', '^src/operations/'],
  // The pipeline every route runs (endpoint.ts), the route list, and the mock a request addresses.
  ['pipeline', '^src/pipeline/'],
  // Beside the order: the inspector page's server side uses only what is below it.
  ['inspector', '^src/inspector/'],
  // 4. The test-double surface: mock.control's parts, reproduction, the client report, shadow mode, then control's pieces.
  ['mock-control', '^src/mock-control/'],
  ['reproduce', '^src/reproduce/'],
  ['judge', '^src/judge/'],
  ['shadow', '^src/shadow/'],
  ['control', '^src/control/'],
  // 5. The engine, then the service's rules.
  ['fixtures', '^src/(fixtures|fixture-references|client-helpers)\\.ts$'],
  ['simulation', '^src/simulation/'],
  ['deps', '^src/deps\\.ts$'],
  ['domain', '^src/domain/'],
  // 6. The HTTP error layer (it answers storage's failure as a 503), storage and the schemas.
  ['body', '^src/body/'],
  ['errors', '^src/errors\\.ts$'],
  ['openapi', '^src/openapi/'],
  ['storage', '^src/storage/'],
  ['schemas', '^src/schemas/'],
  // 7. Leaves.
  ['metrics', '^src/metrics/'],
  ['validation', '^src/validation\\.ts$'],
  ['pydantic', '^src/pydantic/'],
  // The answer comparator shadow mode and the conformance command share.
  ['compare', '^src/compare/'],
  // The in-process transport uses libraries only.
  ['inprocess', '^src/inprocess/'],
  // The shipped typed client stands beside the order too: it may use leaves only.
  ['testcontainers', '^src/testcontainers/'],
  ['client', '^src/client/'],
  [
    'leaves',
    '^src/(reason-codes|bearer|remembered|koa-class|json|json-depth|json-length|glob|path-segments|host-name|verification-error|request-waits|shared-identity)\\.ts$',
  ],
];

const floorRules = UNITS.slice(1).map(([name, path], i) => ({
  name: `floor-${name}`,
  comment: `${name} imports only what lies below it (docs/architecture.md)`,
  severity: 'error',
  from: { path },
  to: {
    path: UNITS.slice(0, i + 1)
      .map(([, p]) => p)
      .join('|'),
  },
}));
// Code outside a folder reaches into it only through the folder's index.ts (its public face).
const faceRules = [
  {
    name: 'face-from-a-folder',
    comment: 'code outside a folder imports only its index.ts',
    severity: 'error',
    from: { path: '^src/([^/]+)/' },
    to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
  },
  {
    name: 'face-from-a-file',
    comment: 'code outside a folder imports only its index.ts',
    severity: 'error',
    from: { path: '^(src/[^/]+\\.ts|bench/|scripts/)' },
    to: { path: '^src/[^/]+/', pathNot: '^src/[^/]+/index\\.ts$' },
  },
];

export default {
  forbidden: [
    { name: 'no-circular', comment: 'no circle between files, type-only imports included', severity: 'error', from: {}, to: { circular: true } },
    ...floorRules,
    ...faceRules,
    {
      name: 'client-without-node',
      comment: 'the shipped client runs outside Node: nothing from node:',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    // Type-only imports are edges too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|src/inspector/page)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'], conditionNames: ['import', 'types', 'node', 'default'] },
  },
};
