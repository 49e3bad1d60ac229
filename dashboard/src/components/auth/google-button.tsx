/**
 * 'Continue with Google', shown only when GET /api/config returned a Firebase configuration.
 * The Firebase SDK downloads on click, not before (lib/google-sign-in.ts). The button stays
 * clickable while a popup is open: a new click opens a new popup, which cancels the earlier one.
 */
import { useEffect, useRef, useState } from "react";
import { useAuth } from "../../stores/auth";
import { Spinner } from "../ui/spinner";
import { Button } from "../ui/button";
import { GoogleMark } from "../ui/icons";

export interface GoogleButtonProps {
  /** True while the page's own form is submitting. */
  disabled: boolean;
  remember: () => boolean;
  /** Called with the catalogue message of a failure, or null when a new attempt starts. */
  onError: (message: string | null) => void;
  onSignedIn: () => void;
}

export function GoogleButton({ disabled, remember, onError, onSignedIn }: GoogleButtonProps) {
  const config = useAuth((s) => s.clientConfig);
  const loadClientConfig = useAuth((s) => s.loadClientConfig);
  const signInWithGoogle = useAuth((s) => s.signInWithGoogle);
  const [pending, setPending] = useState(false);
  const attempt = useRef(0);

  useEffect(() => {
    void loadClientConfig();
  }, [loadClientConfig]);

  if (!config?.firebase) return null;

  const onClick = async () => {
    const mine = ++attempt.current;
    setPending(true);
    onError(null);
    try {
      const user = await signInWithGoogle(remember());
      if (user) onSignedIn(); // null: a newer popup replaced this one and will finish the job
    } catch (err) {
      if (mine === attempt.current) onError((err as Error).message);
    } finally {
      if (mine === attempt.current) setPending(false);
    }
  };

  return (
    <>
      <Button variant="secondary" size="lg" className="w-full" disabled={disabled} aria-busy={pending || undefined} onClick={onClick}>
        {pending ? <Spinner size={16} /> : <GoogleMark size={18} />}
        Continue with Google
      </Button>
      <div className="my-5 flex items-center gap-3 text-xs text-faint" aria-hidden="true">
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>
    </>
  );
}
