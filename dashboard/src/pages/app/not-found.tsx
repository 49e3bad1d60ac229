/**
 * An address under /app that names no page: said inside the app's frame (its bar and navigation
 * stay), with the way back to the app's home. Paths outside /app still leave for / (app.tsx).
 */
import { Link } from "wouter";
import { appMessages, appRoutes } from "../../../../contract";
import { buttonClasses } from "../../components/ui/button";
import { AlertIcon } from "../../components/ui/icons";
import { PageContainer } from "../../components/ui/page";

export default function NotFoundPage() {
  const text = appMessages.pageNotFound;
  return (
    <PageContainer narrow>
      <section aria-labelledby="not-found-title" className="mt-8 flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-14 text-center">
        <div className="flex size-11 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <AlertIcon size={20} />
        </div>
        <h1 id="not-found-title" className="mt-4 text-xl font-semibold tracking-tight text-fg">
          {text.title}
        </h1>
        <p className="mt-2 max-w-md text-sm text-muted">{text.body}</p>
        <Link href={appRoutes.newChat} className={buttonClasses("primary", "md", "mt-6")}>
          {text.back}
        </Link>
      </section>
    </PageContainer>
  );
}
