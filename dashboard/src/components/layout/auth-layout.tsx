/** The frame of the sign-in pages: a slim top bar (name, Home, Theme) and a centred card. */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { appMessages, appRoutes, publicRoutes, PRODUCT_NAME } from "../../../../contract";
import { HomeIcon, TalaMark } from "../ui/icons";
import { ThemeSelect } from "../ui/theme-controls";
import { SkipLink } from "./app-layout";

export function AuthLayout({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-subtle/60 text-fg dark:bg-canvas">
      <SkipLink />
      <header className="flex h-14 items-center gap-2 px-4 sm:px-6">
        <Link href={appRoutes.newChat} className="flex items-center gap-2 rounded-lg px-1 text-[15px] font-semibold tracking-tight">
          <TalaMark size={26} />
          <span>{PRODUCT_NAME}</span>
        </Link>
        <div className="ml-auto flex items-center gap-2">
          <a href={publicRoutes.home} className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm text-muted hover:bg-subtle hover:text-fg">
            <HomeIcon size={17} />
            <span className="max-sm:sr-only">{appMessages.home}</span>
          </a>
          <ThemeSelect />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 focus:outline-none sm:items-center sm:pt-0">
        <div className="w-full max-w-[420px]">
          <div className="rounded-2xl border border-line bg-surface p-6 shadow-sm sm:p-8">
            <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
            {description && <p className="mt-1.5 text-sm text-muted">{description}</p>}
            <div className="mt-6">{children}</div>
          </div>
          {footer && <div className="mt-5 text-center text-sm text-muted">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
