/**
 * The top bar (spec section 2): product name and Home. Signed out: Sign In and 'Get Started - It's
 * Free', plus the Theme select. Signed in: the menu button (phones), the workspace switcher (the
 * workspace every screen is in) and the user menu.
 */
import { Link } from "wouter";
import { appMessages, appRoutes, publicRoutes, PRODUCT_NAME } from "../../../../contract";
import { useAuth } from "../../stores/auth";
import { buttonClasses } from "../ui/button";
import { HomeIcon, TalaMark } from "../ui/icons";
import { ThemeSelect } from "../ui/theme-controls";
import { InstallButton } from "../../pwa";
import { MobileMenu } from "./mobile-menu";
import { UserMenu } from "./user-menu";
import { WorkspaceSwitcher } from "./workspace-switcher";

export function TopBar() {
  const signedIn = useAuth((s) => s.isAuthenticated);
  const isGuest = useAuth((s) => s.isGuest);
  return (
    <header className="sticky top-0 z-30 h-14 border-b border-line bg-canvas/90 backdrop-blur supports-[backdrop-filter]:bg-canvas/75">
      <div className="flex h-full items-center gap-2 px-3 sm:px-6">
        {/* Guests chat too: on phones the menu is their way to the chat list and to an account. */}
        {(signedIn || isGuest) && <MobileMenu />}
        <Link href={appRoutes.newChat} className="flex items-center gap-2 rounded-lg px-1 text-[15px] font-semibold tracking-tight text-fg">
          <TalaMark size={26} />
          {/* Phones need the room (Sign In and Get Started; the workspace switcher): the name stays for screen readers. */}
          <span className="max-sm:sr-only">{PRODUCT_NAME}</span>
        </Link>
        {signedIn && <WorkspaceSwitcher />}
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <InstallButton className="max-sm:hidden" />
          <a
            href={publicRoutes.home}
            className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2 text-sm text-muted hover:bg-subtle hover:text-fg sm:px-2.5"
          >
            <HomeIcon size={17} />
            <span className="max-sm:sr-only">{appMessages.home}</span>
          </a>
          {signedIn ? (
            <UserMenu />
          ) : (
            <>
              <ThemeSelect className="max-sm:hidden" />
              <Link href={publicRoutes.login} className={buttonClasses("ghost", "md", "max-sm:px-2")}>
                {appMessages.signIn}
              </Link>
              <Link href={publicRoutes.register} className={buttonClasses("primary", "md", "max-sm:px-2.5 max-sm:text-[13px]")}>
                {appMessages.getStarted}
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
