/**
 * preact/jsx-runtime for widget-core.js only (build.mjs aliases it): the same elements through
 * preact's own createElement, ~90 bytes gzip lighter than the runtime's separate vnode factory.
 * Types, tests and the npm package use preact/jsx-runtime itself.
 */
import { createElement, Fragment, type ComponentType } from "preact";

export { Fragment };
export const jsx = (type: string | ComponentType, { children, ...props }: Record<string, unknown>, key?: unknown) =>
  createElement(type as string, key === undefined ? props : { ...props, key }, children as never);
export const jsxs = jsx;
