// What the typed methods check before anything is sent: every key is one the method's params schema names (or a
// call option), and every value has the schema's JSON type, one of its values, its pattern (a date's shape). The
// rules come from Schemas/ through param-rules.js (generated); ranges, lengths and the rules between params
// (exactly one of title and movieCode) stay with the worker, which answers them with -32602 itself.

import { PARAM_RULES } from "./param-rules.js";

/** The JSON type a value would be sent as ("integer" for a whole number), or its JavaScript type when none. */
export function jsonType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") {
    return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : "non-finite number";
  }
  if (typeof value === "object") return isPlainObject(value) ? "object" : value.constructor?.name ?? "object";
  return typeof value;
}

export function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A value as a message names it: `the string "3"`, `the integer 20220105`, `an array`, `a Date`. */
export function described(value) {
  const type = jsonType(value);
  if (type === "null") return "null";
  if (["string", "integer", "number", "boolean"].includes(type)) return `the ${type} ${quoted(value)}`;
  return /^[aeiou]/i.test(type) ? `an ${type}` : `a ${type}`;
}

function hasType(value, type) {
  const actual = jsonType(value);
  return actual === type || (type === "number" && actual === "integer");
}

function quoted(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Edit distance (insertions, deletions, substitutions) between two short words. Written here: Node has none built
 * in, and the client depends on nothing outside Node. */
function distance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate `word` was most likely meant as: one that differs only in case, `_` or `-` (`multi_movie`,
 * `moviecode`), else the nearest within one edit per three letters (`data` → `date`); undefined when none is near.
 */
export function closest(word, candidates) {
  const plain = (text) => String(text).toLowerCase().replace(/[_-]/g, "");
  const same = candidates.find((candidate) => plain(candidate) === plain(word));
  if (same !== undefined) return same;
  let best;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const edits = distance(String(word), String(candidate));
    const allowed = Math.max(1, Math.floor(Math.min(String(word).length, String(candidate).length) / 3));
    if (edits <= allowed && edits < bestDistance) {
      best = candidate;
      bestDistance = edits;
    }
  }
  return best;
}

const patterns = new Map();

/** The pattern as a RegExp, or null when this JavaScript cannot compile it (the worker still checks it). */
function compiled(pattern) {
  if (!patterns.has(pattern)) {
    let regex = null;
    try {
      regex = new RegExp(pattern, "u");
    } catch {}
    patterns.set(pattern, regex);
  }
  return patterns.get(pattern);
}

/** What is wrong with one value under `rule`, as error objects like the worker's (`instanceLocation`, …). */
function valueProblems(value, rule, location, name, keywordLocation) {
  const problem = (keyword, message) => [{ instanceLocation: location, keywordLocation: `${keywordLocation}/${keyword}`,
                                           message: `${quoted(name)} must be ${message}` }];
  const types = rule.type === undefined ? [] : [].concat(rule.type);
  if (types.length && !types.some((type) => hasType(value, type))) {
    const wanted = types.map((type) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)).join(" or ");
    return problem("type", `${wanted}, not ${described(value)}`);
  }
  if (rule.enum && !rule.enum.some((allowed) => allowed === value)) {
    const words = rule.enum.filter((allowed) => typeof allowed === "string");
    const near = typeof value === "string" ? closest(value, words) : undefined;
    return problem("enum", `one of ${rule.enum.map(quoted).join(", ")}, not ${described(value)}` +
      (near !== undefined ? ` (did you mean ${quoted(near)}?)` : ""));
  }
  if (rule.pattern && typeof value === "string" && compiled(rule.pattern) && !compiled(rule.pattern).test(value)) {
    const shape = rule.format === "date" ? "a date as YYYY-MM-DD" : `a string matching ${rule.pattern}`;
    return problem("pattern", `${shape}, not ${quoted(value)}`);
  }
  if (rule.items && Array.isArray(value)) {
    return value.flatMap((item, index) =>
      valueProblems(item, rule.items, `${location}/${index}`, `${name}[${index}]`, `${keywordLocation}/items`));
  }
  return [];
}

/**
 * What is wrong with `params` (keys and values as they would be sent) for `method`, as error objects like the
 * worker's `data.errors`; empty when nothing is, or when the method has no generated rules (`call` of a method this
 * client does not know). `optionKeys` are taken too and offered as suggestions (the call options).
 */
export function paramProblems(method, params, optionKeys = []) {
  const rules = Object.hasOwn(PARAM_RULES, method) ? PARAM_RULES[method] : undefined;
  if (!rules) return [];
  const known = Object.keys(rules.properties);
  const problems = [];
  for (const [key, value] of Object.entries(params)) {
    if (key === "_meta" || optionKeys.includes(key)) continue;
    const rule = Object.hasOwn(rules.properties, key) ? rules.properties[key] : undefined;
    if (!rule) {
      if (!rules.closed) continue;
      const near = closest(key, [...known, ...optionKeys]);
      const takes = known.length ? `it takes ${known.map(quoted).join(", ")}` : "it takes no params";
      const hint = near !== undefined ? ` (did you mean ${quoted(near)}?)` : `; ${takes}`;
      problems.push({ instanceLocation: `/${key}`, keywordLocation: "/additionalProperties",
                      message: `unknown key ${quoted(key)}${hint}` });
      continue;
    }
    if (value === undefined || value === null) continue; // absent: not sent
    problems.push(...valueProblems(value, rule, `/${key}`, key, `/properties/${key}`));
  }
  return problems;
}
