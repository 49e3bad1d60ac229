/** Settings → Sign out: ends this session (as Sign out in the user menu does). */
import { useState } from "react";
import { formatDay } from "../../lib/format";
import { appMessages, type User } from "../../../../contract";
import { signOut } from "../../lib/sign-out";
import { Button } from "../ui/button";
import { LogOutIcon } from "../ui/icons";
import { SettingsSection } from "./section";

export function SessionSection({ user }: { user: User }) {
  const [busy, setBusy] = useState(false);
  return (
    <SettingsSection title={appMessages.signOut} description="Sign out of Tala on this device." icon={<LogOutIcon size={18} />}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">
          Signed in as <span className="font-medium text-fg">{user.email}</span>
          {user.createdAt > 0 && <> · member since {formatDay(user.createdAt)}</>}
        </p>
        <Button
          variant="danger"
          busy={busy}
          onClick={() => {
            setBusy(true);
            void signOut();
          }}
        >
          {appMessages.signOut}
        </Button>
      </div>
    </SettingsSection>
  );
}
