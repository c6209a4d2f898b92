// Resolver methods made at run time (from a resource's declaration): the method
// is added to the class's prototype, then decorated as TypeScript would have
// decorated it in a class body. Every type is given explicitly, so nothing
// depends on emitted design-time metadata.
export type ParameterDecorator = (prototype: object, name: string, index: number) => void;

export function decoratedMethod(
  prototype: object,
  name: string,
  handler: (...args: never[]) => unknown,
  decorators: MethodDecorator[],
  parameters: ParameterDecorator[],
): void {
  Object.defineProperty(prototype, name, { value: handler, writable: true, configurable: true });
  parameters.forEach((decorate, index) => decorate(prototype, name, index));
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  for (const decorate of decorators) decorate(prototype, name, descriptor);
}
