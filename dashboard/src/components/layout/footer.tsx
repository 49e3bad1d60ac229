/** The footer (spec section 2): a store badge link, a credit line, Privacy Policy, Terms, FAQ, Blog. */
import { appMessages, footerLinks, publicRoutes, PRODUCT_NAME } from "../../../../contract";
import { TalaMark } from "../ui/icons";

/** The marketing FAQ's answer on installing Tala as an app (the badge's target, as on the marketing site). */
const INSTALL_HELP = `${publicRoutes.faq}#how-do-i-install-tala-as-an-app`;

export function Footer() {
  const year = new Date().getFullYear();
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
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {footerLinks.map((link) => (
              <li key={link.path}>
                <a href={link.path} className="text-muted hover:text-fg hover:underline">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
