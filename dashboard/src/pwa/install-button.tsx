/** 'Install App': shown only while the browser offers installation (spec section 4 "Install button"). */
import { appMessages } from "../../../contract";
import { buttonClasses } from "../components/ui/button";
import { useInstallPrompt } from "./install-prompt";

export function InstallButton({ className = "" }: { className?: string }) {
  const { canInstall, install } = useInstallPrompt();
  if (!canInstall) return null;
  return (
    <button type="button" onClick={() => void install()} className={buttonClasses("secondary", "md", className)}>
      <svg
        width={16}
        height={16}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="M12 3v12" />
        <path d="m7 10 5 5 5-5" />
        <path d="M5 21h14" />
      </svg>
      {appMessages.installApp}
    </button>
  );
}
