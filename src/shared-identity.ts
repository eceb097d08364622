// Class identity that holds across copies of the package: its ES module and CommonJS builds loaded in one process
// (a CommonJS test with an ES module helper, say) each define their own classes, so `instanceof` on a class users
// catch or throw (a storage conflict, a refused data file) reads a name registered process-wide, not the class object.

const IDENTITY = Symbol.for('project-runtime-mock.class-identity');

/** Marks `cls` as `name` for every copy: an instance of any copy's class of that name passes `instanceof cls`. */
export function sharedIdentity(cls: abstract new (...args: never[]) => object, name: string): void {
  Object.defineProperty(cls.prototype, IDENTITY, { value: name });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (x: unknown) => typeof x === 'object' && x !== null && (x as { [IDENTITY]?: unknown })[IDENTITY] === name,
  });
}
