/**
 * The app's frame while the session check runs (the access guard's 'Loading...', spec section 2):
 * the top bar, the side panel and a page of skeletons, so the app appears at once instead of a
 * blank screen, and nothing moves when the real page replaces it. Skeletons are hidden from
 * screen readers; the status says 'Loading...'. Pulses only when motion is welcome.
 */
import { appMessages, layout, PRODUCT_NAME } from "../../../../contract";
import { TalaMark } from "../ui/icons";
import { SkipLink } from "./app-layout";

const bar = "rounded-md bg-subtle motion-safe:animate-pulse";

/** A page's skeleton (title, text, two cards) with the 'Loading...' status: inside the layout or the frame. */
export function PageSkeleton() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6" role="status">
      <p className="text-sm text-muted">{appMessages.loading}</p>
      <div aria-hidden="true" className="mt-4 space-y-6">
        <div className={`${bar} h-8 w-56`} />
        <div className="space-y-2">
          <div className={`${bar} h-3.5 w-full max-w-xl`} />
          <div className={`${bar} h-3.5 w-4/5 max-w-lg`} />
        </div>
        <div className="grid gap-5 lg:grid-cols-2">
          {[0, 1].map((i) => (
            <div key={i} className="space-y-3 rounded-xl border border-line bg-surface p-5">
              <div className={`${bar} h-5 w-40`} />
              <div className={`${bar} h-3.5 w-full`} />
              <div className={`${bar} h-3.5 w-2/3`} />
              <div className={`${bar} h-9 w-full`} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** The whole frame: top bar (name, and where the menu will be), side panel (the navigation's places), page skeleton. */
export function AppFrame() {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas text-fg">
      <SkipLink />
      <header className="sticky top-0 z-30 h-14 border-b border-line bg-canvas">
        <div className="flex h-full items-center gap-2 px-3 sm:px-6">
          <span aria-hidden="true" className={`${bar} size-8 md:hidden`} />
          <span className="flex items-center gap-2 px-1 text-[15px] font-semibold tracking-tight text-fg">
            <TalaMark size={26} />
            {PRODUCT_NAME}
          </span>
          <span aria-hidden="true" className={`${bar} ml-auto h-8 w-24 rounded-full`} />
        </div>
      </header>
      <div className="flex flex-1">
        <div aria-hidden="true" className="hidden shrink-0 border-r border-line md:block" style={{ width: layout.sidePanelWidthPx }}>
          <div className="space-y-2 p-3">
            {[0, 1, 2, 3, 4].map((i) => (
              <div key={i} className="flex h-9 items-center gap-3 px-3">
                <span className={`${bar} size-4`} />
                <span className={`${bar} h-3.5 w-28`} />
              </div>
            ))}
          </div>
        </div>
        <main id="main" tabIndex={-1} className="flex min-w-0 flex-1 flex-col focus:outline-none">
          <PageSkeleton />
        </main>
      </div>
    </div>
  );
}
