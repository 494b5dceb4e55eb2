import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own schema compilers (Ajv for what a request brings, fast-json-stringify for what an
 * answer sends; a body's Ajv without coercion, below), but each route's schemas are compiled when
 * the route first uses them instead of all at start-up: that compiling (Ajv's meta-schema first) was
 * a large share of a start. A request is checked by its validator before its handler runs; only the
 * moment the validator is made moves. `compileAll()` compiles whatever is left, at once: the tests
 * use it so that a broken schema still fails them, as it failed the start before.
 */
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

type BuildValidator = ReturnType<typeof AjvCompiler>;
type BuildSerializer = ReturnType<typeof SerializerSelector>;
type Route = { method?: string; url?: string; httpPart?: string; httpStatus?: string };

/** One app's compilers (as Fastify makes its defaults: one pool per instance). */
export function lazySchemaCompilers() {
  const defaultValidators = AjvCompiler();
  const defaultSerializers = SerializerSelector();
  /** Compiles one route's schema that no request has needed yet. */
  const pending = new Set<() => void>();

  /** `make`, called once, when first needed; until then listed in `pending`. */
  function once<T>(make: () => T, route: Route): () => T {
    let made: { value: T } | undefined;
    const get = () => {
      if (!made) {
        try {
          made = { value: make() };
        } catch (error) {
          const part = route.httpPart ?? `response ${route.httpStatus ?? ''}`.trim();
          throw new Error(
            `Failed building the schema of ${route.method} ${route.url} (${part}): ${(error as Error).message}`,
            { cause: error },
          );
        }
        pending.delete(get);
      }
      return made.value;
    };
    pending.add(get);
    return get;
  }

  const buildValidator: BuildValidator = (externalSchemas, options) => {
    let compilerFor: ReturnType<BuildValidator> | undefined;
    let bodyCompilerFor: ReturnType<BuildValidator> | undefined;
    // A JSON body is checked without Ajv's coercion: `true`, `["a"]`, `{}` or `null` where a string
    // belongs is the client's mistake, refused as Django REST Framework refuses it (a number has been
    // made its text before, as DRF takes it: field-input.ts; a form's values are strings). A query
    // string or a path is all text: coerced as Fastify does. `verbose` gives an error its value.
    const bodyOptions = {
      ...options,
      customOptions: { ...options?.customOptions, coerceTypes: false, verbose: true },
    } as typeof options;
    return ((route: Parameters<ReturnType<BuildValidator>>[0]) => {
      const compiled = once(
        () =>
          ((route as Route).httpPart === 'body'
            ? (bodyCompilerFor ??= defaultValidators(externalSchemas, bodyOptions))
            : (compilerFor ??= defaultValidators(externalSchemas, options)))(route) as Validate,
        route as Route,
      );
      const validate: Validate = (data, context) => {
        const real = compiled();
        const result = real(data, context);
        validate.errors = real.errors;
        return result;
      };
      // Fastify gives Ajv's validators the request as parent data (so coercion may replace a whole
      // part); Ajv's `schemaEnv` is how it knows one.
      validate.schemaEnv = true;
      return validate;
    }) as ReturnType<BuildValidator>;
  };

  const buildSerializer: BuildSerializer = (externalSchemas, options) => {
    let compilerFor: ReturnType<BuildSerializer> | undefined;
    return (route) => {
      const compiled = once(() => (compilerFor ??= defaultSerializers(externalSchemas, options))(route), route);
      return (data: unknown) => compiled()(data);
    };
  };

  return {
    buildValidator,
    buildSerializer,
    /** Compiles every schema not compiled yet; throws the first that does not compile. */
    compileAll(): void {
      for (const compile of [...pending]) compile();
    },
  };
}
