// Stand-ins for what index.d.ts names from @types/node and TypeScript >= 5.2's lib, so `tsc` checks
// the package's declarations with nothing installed beyond TypeScript itself (types.test.js).
declare namespace NodeJS { type Signals = string }
interface Buffer extends Uint8Array {}
interface SymbolConstructor { readonly asyncDispose: unique symbol }
interface AsyncDisposable { [Symbol.asyncDispose](): PromiseLike<void> }
