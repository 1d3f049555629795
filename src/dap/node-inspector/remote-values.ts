// V8's RemoteObjects as DAP variables: a value as the model reads it (strings quoted, numbers as
// written, objects by their description), and a handle for anything with children. Handles live
// until the program runs again (DAP's rule for variablesReference), then start over.
import type { DebugProtocol } from "@vscode/debugprotocol";

export interface RemoteObject {
  type: string;
  subtype?: string;
  className?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  objectId?: string;
}

export interface PropertyDescriptor {
  name: string;
  value?: RemoteObject;
  get?: RemoteObject;
  isOwn?: boolean;
}

/** What a variables reference stands for: one object's properties, or a scope made of several objects. */
export type Handle = { objects: string[] };

export class Handles {
  private items: Handle[] = [];

  add(handle: Handle): number {
    this.items.push(handle);
    return this.items.length;
  }

  get(reference: number): Handle | undefined {
    return this.items[reference - 1];
  }

  reset(): void {
    this.items = [];
  }
}

export function valueText(o: RemoteObject): string {
  if (o.type === "string") return JSON.stringify(o.value);
  if (o.unserializableValue !== undefined) return o.unserializableValue;
  if (o.type === "undefined") return "undefined";
  if (o.subtype === "null") return "null";
  if (o.type === "number" || o.type === "boolean") return String(o.value);
  if (o.type === "function") return `ƒ ${firstLine(o.description ?? "").replace(/\s*\{.*$/, "")}`;
  if (o.subtype === "error") return firstLine(o.description ?? o.className ?? "Error");
  return o.description ?? o.className ?? o.type;
}

export function typeText(o: RemoteObject): string {
  if (o.subtype === "null") return "null";
  return o.type === "object" ? (o.className ?? "object") : o.type;
}

/** Functions are not expanded: their properties say nothing a model needs. */
export function hasChildren(o: RemoteObject): o is RemoteObject & { objectId: string } {
  return o.objectId !== undefined && o.type === "object" && o.subtype !== "null";
}

export function toVariable(o: RemoteObject, opts: { name: string; handles: Handles }): DebugProtocol.Variable {
  return {
    name: opts.name,
    value: valueText(o),
    type: typeText(o),
    variablesReference: hasChildren(o) ? opts.handles.add({ objects: [o.objectId] }) : 0,
  };
}

export function firstLine(text: string): string {
  const cut = text.indexOf("\n");
  return cut < 0 ? text : text.slice(0, cut);
}
