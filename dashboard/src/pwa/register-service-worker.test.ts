import { describe, expect, it, vi } from "vitest";
import { serviceWorker } from "../../../contract";
import { registerServiceWorker, type ServiceWorkerEnv } from "./register-service-worker";

/** Just enough of ServiceWorker, ServiceWorkerRegistration and ServiceWorkerContainer. */
class FakeWorker extends EventTarget {
  state = "installing";
  messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  become(state: string) {
    this.state = state;
    this.dispatchEvent(new Event("statechange"));
  }
}
class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  update = vi.fn(async () => undefined);
  found(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event("updatefound"));
  }
}
class FakeContainer extends EventTarget {
  controller: object | null = null;
  registration = new FakeRegistration();
  register = vi.fn(async () => this.registration);
}

function setup(controlled: boolean) {
  const container = new FakeContainer();
  if (controlled) container.controller = {};
  const reload = vi.fn();
  const env = { container, reload } as unknown as ServiceWorkerEnv;
  return { container, reload, env };
}

describe("registerServiceWorker", () => {
  it("registers /service-worker.js with scope /", async () => {
    const { container, env } = setup(false);
    await registerServiceWorker(() => undefined, env);
    expect(container.register).toHaveBeenCalledWith(serviceWorker.path, { scope: serviceWorker.scope });
  });

  it("does nothing where service workers are unsupported", async () => {
    const onUpdate = vi.fn();
    expect(await registerServiceWorker(onUpdate, { container: undefined, reload: vi.fn() })).toBeUndefined();
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it("does not ask on the first install (no controller yet)", async () => {
    const { container, env } = setup(false);
    const onUpdate = vi.fn();
    await registerServiceWorker(onUpdate, env);
    const worker = new FakeWorker();
    container.registration.found(worker);
    worker.become("installed");
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it("asks once when an update has installed, and apply() skips waiting then reloads once", async () => {
    const { container, reload, env } = setup(true);
    const onUpdate = vi.fn();
    await registerServiceWorker(onUpdate, env);
    const worker = new FakeWorker();
    container.registration.found(worker);
    expect(onUpdate).not.toHaveBeenCalled();
    worker.become("installed");
    expect(onUpdate).toHaveBeenCalledTimes(1);

    const apply = onUpdate.mock.calls[0]![0] as () => void;
    apply();
    expect(worker.messages).toEqual([{ type: serviceWorker.skipWaitingType }]);
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event("controllerchange"));
    container.dispatchEvent(new Event("controllerchange"));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("offers a worker that was already waiting from an earlier visit", async () => {
    const { container, env } = setup(true);
    const waiting = new FakeWorker();
    waiting.state = "installed";
    container.registration.waiting = waiting;
    const onUpdate = vi.fn();
    await registerServiceWorker(onUpdate, env);
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });

  it("resolves undefined when registration fails", async () => {
    const { container, env } = setup(false);
    container.register.mockRejectedValueOnce(new Error("blocked"));
    expect(await registerServiceWorker(() => undefined, env)).toBeUndefined();
  });
});
