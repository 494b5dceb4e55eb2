/**
 * The TypeBox builders the contract uses, one by one: `import * as Type from './typebox.js'` reads as
 * TypeBox's own `Type.Object(…)`, but a bundle keeps only these (TypeBox's `Type` is one object holding
 * every builder, so importing it bundles them all, and the server's start-up bundle would carry the
 * ones it never uses).
 */
export { Array, Boolean, Integer, Object, Optional, String, Unsafe } from '@sinclair/typebox';
