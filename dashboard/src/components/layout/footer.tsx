/**
 * The footer (spec section 2): a store badge link, a credit line, Privacy Policy, Terms, FAQ, Blog.
 * `compact` is the chat screen's: the same parts on one slim line (two on a phone) under the
 * conversation, so the chat keeps the window's height for its messages and composer.
 */
import { appMessages, footerLinks, publicRoutes, PRODUCT_NAME } from "../../../../contract";
import { TalaMark } from "../ui/icons";

/** The marketing FAQ's answer on installing Tala as an app (the badge's target, as on the marketing site). */
const INSTALL_HELP = `${publicRoutes.faq}#how-do-i-install-tala-as-an-app`;

function FooterLinks({ className }: { className: string }) {
  return (
    <nav aria-label="Footer">
      <ul className={className}>
        {footerLinks.map((link) => (
          <li key={link.path}>
            <a href={link.path} className="text-muted hover:text-fg hover:underline">
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function CompactFooter({ year }: { year: number }) {
  return (
    <footer className="shrink-0 border-t border-line bg-canvas">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-1.5 text-xs sm:px-4">
        <div className="flex min-w-0 items-center gap-3">
          <a
            href={INSTALL_HELP}
            className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-line-strong bg-surface px-2 py-0.5 text-fg hover:bg-subtle"
          >
            <TalaMark size={14} />
            <span>
              <span className="text-muted">{appMessages.storeBadge.caption}</span> <strong className="font-semibold">{appMessages.storeBadge.title}</strong>
            </span>
          </a>
          <p className="min-w-0 truncate text-muted">
            © {year} {PRODUCT_NAME}.<span className="max-lg:hidden"> {appMessages.credit}</span>
          </p>
        </div>
        <FooterLinks className="flex flex-wrap gap-x-4 gap-y-1" />
      </div>
    </footer>
  );
}

export function Footer({ compact = false }: { compact?: boolean }) {
  const year = new Date().getFullYear();
  if (compact) return <CompactFooter year={year} />;
  return (
    <footer className="border-t border-line bg-canvas">
      <div className="flex flex-col gap-5 px-4 py-6 sm:px-8 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-5">
          <a
            href={INSTALL_HELP}
            className="inline-flex w-fit items-center gap-2.5 rounded-lg border border-line-strong bg-surface px-3 py-1.5 text-fg hover:bg-subtle"
          >
            <TalaMark size={22} />
            <span className="flex flex-col leading-tight">
              <small className="text-[11px] text-muted">{appMessages.storeBadge.caption}</small>
              <strong className="text-sm font-semibold">{appMessages.storeBadge.title}</strong>
            </span>
          </a>
          <p className="text-xs text-muted">
            © {year} {PRODUCT_NAME}. {appMessages.credit}
          </p>
        </div>
        <FooterLinks className="flex flex-wrap gap-x-5 gap-y-2 text-sm" />
      </div>
    </footer>
  );
}
