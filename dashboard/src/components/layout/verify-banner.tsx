/** Reminds a signed-in user with an unverified e-mail to verify it; dismissible for the session. */
import { useState } from "react";
import { Link } from "wouter";
import { appMessages, publicRoutes, storageKeys } from "../../../../contract";
import { readItem, writeItem } from "../../lib/storage";
import { useAuth } from "../../stores/auth";
import { CloseIcon, MailIcon } from "../ui/icons";

export function VerifyEmailBanner() {
  const user = useAuth((s) => s.user);
  const [dismissed, setDismissed] = useState(() => readItem("session", storageKeys.verifyBannerDismissed) === "1");
  if (!user || user.isEmailVerified || dismissed) return null;
  const dismiss = () => {
    writeItem("session", storageKeys.verifyBannerDismissed, "1");
    setDismissed(true);
  };
  return (
    <div role="region" aria-label="Email verification" className="border-b border-warning-line bg-warning-soft text-warning-fg">
      <div className="flex items-center gap-3 px-4 py-2 text-sm sm:px-6">
        <MailIcon size={16} className="shrink-0" />
        <p className="min-w-0 flex-1">
          {appMessages.verifyEmailBanner}{" "}
          <Link
            href={`${publicRoutes.verifyEmail}?email=${encodeURIComponent(user.email)}`}
            className="font-semibold underline underline-offset-2"
          >
            {appMessages.verifyEmailBannerAction}
          </Link>
        </p>
        <button
          type="button"
          onClick={dismiss}
          aria-label="Dismiss"
          className="rounded-md p-1 hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-accent dark:hover:bg-white/10"
        >
          <CloseIcon size={16} />
        </button>
      </div>
    </div>
  );
}
