// ts-jest in its CommonJS mode: test files are TypeScript, compiled (and type-checked) to CommonJS by ts-jest.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
};
