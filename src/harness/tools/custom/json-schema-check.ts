/**
 * Checks that a custom tool's `inputSchema` is a JSON Schema this harness can enforce and the API
 * accepts: an object schema at the root, known `type` names, `properties` of schemas, `required`
 * naming declared properties, well-formed `enum` / `items` / bounds. Every problem names the path
 * of the field it is about (`inputSchema.properties.city.type`), so the editor can point at it.
 *
 * Why our own walker and not a validator library: the app's CSP has no `unsafe-eval`, which rules
 * out validators that compile schemas to code (Ajv); input is checked with zod's
 * `z.fromJSONSchema`, and this walk says precisely what is wrong before zod is asked.
 */

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const KNOWN_KEYS = new Set([
  'type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'enum', 'const', 'items',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern',
  'minItems', 'maxItems', 'default', 'examples', 'format', '$schema',
]);

type Issue = { path: string; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkNode(node: unknown, path: string, out: Issue[]): void {
  if (!isObject(node)) {
    out.push({ path, message: 'must be a JSON Schema object, e.g. {"type": "string"}' });
    return;
  }
  for (const key of Object.keys(node)) {
    if (!KNOWN_KEYS.has(key)) out.push({ path: `${path}.${key}`, message: `"${key}" is not a keyword this harness supports (use type, properties, required, enum, items, description, bounds)` });
  }
  const type = node.type;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (type !== undefined && (types.length === 0 || !types.every((t) => typeof t === 'string'))) {
    out.push({ path: `${path}.type`, message: 'must be a type name or a list of them' });
  }
  for (const t of types) if (typeof t === 'string' && !TYPES.has(t)) out.push({ path: `${path}.type`, message: `"${t}" is not a JSON Schema type (string, number, integer, boolean, object, array, null)` });
  if (node.description !== undefined && typeof node.description !== 'string') out.push({ path: `${path}.description`, message: 'must be a string' });
  if (node.properties !== undefined) {
    if (!isObject(node.properties)) out.push({ path: `${path}.properties`, message: 'must be an object of property name → schema' });
    else for (const [name, sub] of Object.entries(node.properties)) checkNode(sub, `${path}.properties.${name}`, out);
  }
  if (node.required !== undefined) {
    if (!Array.isArray(node.required) || !node.required.every((r) => typeof r === 'string')) {
      out.push({ path: `${path}.required`, message: 'must be a list of property names' });
    } else {
      const declared = isObject(node.properties) ? node.properties : {};
      node.required.forEach((r, i) => {
        if (!(r in declared)) out.push({ path: `${path}.required.${i}`, message: `"${r}" is required but not declared in properties` });
      });
    }
  }
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== 'boolean') {
    if (isObject(node.additionalProperties)) checkNode(node.additionalProperties, `${path}.additionalProperties`, out);
    else out.push({ path: `${path}.additionalProperties`, message: 'must be true, false or a schema' });
  }
  if (node.enum !== undefined && (!Array.isArray(node.enum) || node.enum.length === 0)) out.push({ path: `${path}.enum`, message: 'must be a non-empty list of allowed values' });
  if (node.items !== undefined) checkNode(node.items, `${path}.items`, out);
  for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) {
    if (node[bound] !== undefined && typeof node[bound] !== 'number') out.push({ path: `${path}.${bound}`, message: 'must be a number' });
  }
  if (node.pattern !== undefined) {
    if (typeof node.pattern !== 'string') out.push({ path: `${path}.pattern`, message: 'must be a regular expression as a string' });
    else {
      try {
        new RegExp(node.pattern, 'u');
      } catch (e) {
        out.push({ path: `${path}.pattern`, message: `is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
  }
}

/** Problems with a tool's input schema, each naming its field path; empty when it is usable. */
export function checkInputSchema(schema: unknown, root = 'inputSchema'): Issue[] {
  const out: Issue[] = [];
  if (!isObject(schema)) return [{ path: root, message: 'must be a JSON Schema object with "type": "object"' }];
  if (schema.type !== 'object') out.push({ path: `${root}.type`, message: 'the input of a tool is always an object: set "type": "object"' });
  checkNode(schema, root, out);
  return out;
}

export type { Issue as SchemaIssue };
