/**
 * The TypeBox builders the contract uses, one by one: `import * as Type from './typebox.js'` reads as
 * TypeBox's own `Type.Object(…)`, but a bundle keeps only these (TypeBox's `Type` is one object holding
 * every builder, so importing it bundles them all: some 100 kB more in the server's start-up bundle).
 */
export { Array, Integer, Object, Optional, String, Unsafe } from '@sinclair/typebox';
