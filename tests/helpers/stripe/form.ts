import { invalid, missing, unknownParam } from './errors';

/** A form decoded into a tree: `a[b][0]=x` becomes `{ a: { b: { 0: 'x' } } }`; `a[]=x` appends. */
export type FormValue = string | FormTree;
export interface FormTree {
  [key: string]: FormValue;
}

/** The fields of a form or query string, flat, as the SDK encodes them (the last of repeated keys wins). */
export const flatForm = (text: string): Record<string, string> => Object.fromEntries(new URLSearchParams(text));

export function parseForm(text: string): FormTree {
  const root: FormTree = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw invalid(`Invalid parameter name: ${key}`, key);
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1])];
    let node = root;
    path.forEach((segment, index) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (index === path.length - 1) {
        if (typeof node[name] === 'object') throw invalid(`Invalid value for ${key}: expected an object`, key);
        node[name] = value;
        return;
      }
      const next = node[name] ?? {};
      if (typeof next === 'string') throw invalid(`Invalid object for ${key}`, key);
      node[name] = next;
      node = next;
    });
  }
  return root;
}

const isIndex = (key: string) => /^\d+$/.test(key);

/** Reads typed parameters out of a form tree, answering Stripe's errors (param named in full, e.g. `line_items[0][price]`). */
export class Params {
  constructor(
    readonly tree: FormTree,
    readonly prefix = ''
  ) {}

  path(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.tree[key] !== undefined;
  }

  keys(): string[] {
    return Object.keys(this.tree);
  }

  /** Refuse any parameter not in `allowed` (`expand` is always allowed at the top level). */
  only(...allowed: string[]): this {
    for (const key of this.keys()) {
      if (!allowed.includes(key) && !(key === 'expand' && !this.prefix)) throw unknownParam(this.path(key));
    }
    return this;
  }

  string(key: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.tree[key];
    if (value === undefined) {
      if (options.required) throw missing(this.path(key));
      return undefined;
    }
    if (typeof value !== 'string') throw invalid(`Invalid string: ${this.path(key)} must be a string`, this.path(key));
    if (options.required && value === '') throw missing(this.path(key));
    if (options.max !== undefined && value.length > options.max) {
      throw invalid(`Invalid ${this.path(key)}: must be at most ${options.max} characters`, this.path(key));
    }
    return value;
  }

  required(key: string, max?: number): string {
    return this.string(key, { required: true, max }) as string;
  }

  int(key: string, options: { min?: number; max?: number; required?: boolean } = {}): number | undefined {
    const text = this.string(key, { required: options.required });
    if (text === undefined) return undefined;
    if (!/^-?\d+$/.test(text)) throw invalid(`Invalid integer: ${text}`, this.path(key), 'parameter_invalid_integer');
    const value = Number(text);
    if (options.min !== undefined && value < options.min) {
      throw invalid(
        `Invalid ${this.path(key)}: must be greater than or equal to ${options.min}`,
        this.path(key),
        'parameter_invalid_integer'
      );
    }
    if (options.max !== undefined && value > options.max) {
      throw invalid(`Invalid ${this.path(key)}: must be less than or equal to ${options.max}`, this.path(key), 'parameter_invalid_integer');
    }
    return value;
  }

  bool(key: string): boolean | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    if (text !== 'true' && text !== 'false') throw invalid(`Invalid boolean: ${text}`, this.path(key));
    return text === 'true';
  }

  oneOf<T extends string>(key: string, values: readonly T[], required = false): T | undefined {
    const text = this.string(key, { required });
    if (text === undefined) return undefined;
    if (!(values as readonly string[]).includes(text)) {
      const list = values.length > 1 ? `${values.slice(0, -1).join(', ')}, or ${values[values.length - 1]}` : values[0];
      throw invalid(`Invalid ${this.path(key)}: must be one of ${list}`, this.path(key));
    }
    return text as T;
  }

  /** A decimal string such as `0.25` (Stripe's `*_decimal` fields, at most 12 decimal places). */
  decimal(key: string): string | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    if (!/^\d+(\.\d{1,12})?$/.test(text)) throw invalid(`Invalid decimal: ${text}`, this.path(key), 'parameter_invalid_string');
    return text;
  }

  object(key: string): Params | undefined {
    const value = this.tree[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string') throw invalid(`Invalid object`, this.path(key));
    return new Params(value, this.path(key));
  }

  /** An array (`key[0][…]`, `key[1][…]` or `key[][…]`) of objects. */
  list(key: string): Params[] {
    const value = this.tree[key];
    if (value === undefined || value === '') return [];
    if (typeof value === 'string' || !Object.keys(value).every(isIndex)) throw invalid(`Invalid array`, this.path(key));
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((index) => {
        const item = value[index];
        if (typeof item === 'string') throw invalid(`Invalid object`, `${this.path(key)}[${index}]`);
        return new Params(item, `${this.path(key)}[${index}]`);
      });
  }

  /** An array of strings (`key[0]=a` or `key[]=a`). */
  strings(key: string): string[] {
    const value = this.tree[key];
    if (value === undefined || value === '') return [];
    if (typeof value === 'string' || !Object.keys(value).every(isIndex)) throw invalid(`Invalid array`, this.path(key));
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((index) => {
        const item = value[index];
        if (typeof item !== 'string') throw invalid(`Invalid string`, `${this.path(key)}[${index}]`);
        return item;
      });
  }

  /**
   * `metadata[k]=v` as Stripe checks it (at most 50 keys of 40 characters, values of 500). On update an
   * empty value unsets a key and `metadata=` unsets them all: `merge` applies that to `current`.
   */
  metadata(key = 'metadata', current: Record<string, string> = {}): Record<string, string> | undefined {
    const value = this.tree[key];
    if (value === undefined) return undefined;
    if (value === '') return {};
    if (typeof value === 'string') throw invalid('Invalid object', this.path(key));
    const merged = { ...current };
    for (const [name, entry] of Object.entries(value)) {
      const param = `${this.path(key)}[${name}]`;
      if (typeof entry !== 'string') throw invalid('Invalid string', param);
      if (name.length > 40)
        throw invalid(`Metadata keys can have up to 40 characters, but you passed in a key that is ${name.length} characters.`, param);
      if (entry.length > 500)
        throw invalid(
          `Metadata values can have up to 500 characters, but you passed in a value that is ${entry.length} characters.`,
          param
        );
      if (entry === '') delete merged[name];
      else merged[name] = entry;
    }
    if (Object.keys(merged).length > 50) throw invalid('You can specify up to 50 keys in metadata.', this.path(key));
    return merged;
  }
}
