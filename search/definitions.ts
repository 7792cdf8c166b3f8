import { type IndexedSection, isFullName, kindOf } from './fields.ts';
import { CLASS_NAME_LIFT, DEFINITION_LIFT } from './weights.ts';

/** Kinds of documented objects that are classes (Sphinx's object types). */
const CLASS_KINDS = new Set(['class', 'exception']);

/**
 * What an exact name's entry adds to its tier for what it is. A class is what its name means, above the methods and
 * attributes named after it (`Celery.AsyncResult`, which makes a `result.AsyncResult`). A class or exception whose
 * entry names it in full (`exception kombu.exceptions.MessageStateError`: generators write a module's object with its
 * module's path, a class's member by its name alone) is where it is defined, above the namesakes other classes hold
 * (`Message.MessageStateError`, the same exception), however much the site mentions those classes.
 */
export function nameLift(section: IndexedSection): number {
  const kind = kindOf(section.role);
  const definedHere = CLASS_KINDS.has(kind) && isFullName(section.apiName ?? '') && section.title.includes(section.apiName!);
  return (kind === 'class' ? CLASS_NAME_LIFT : 0) + (definedHere ? DEFINITION_LIFT : 0);
}
