/**
 * `@tala/widget/react`: `<TalaWidget apiKey="tala_pk_…" host="https://tala.example.com" />`.
 * A thin wrapper over the facade: it renders nothing itself (the widget lives in its own shadow
 * root on <body>), starts the widget on mount and removes it on unmount. One per page.
 * `userToken`: the signed-in user (see TalaOptions); changing it identifies, removing it logs out.
 * `refreshToken`: asked for a new token when the server refuses it (the latest prop is called).
 */
import { useEffect, useRef } from "react";
import { tala } from "./index";
import type { TalaErrorEvent, TalaMessageEvent, TalaOptions } from "./types";

export interface TalaWidgetProps extends TalaOptions {
  onOpen?: () => void;
  onClose?: () => void;
  onMessage?: (message: TalaMessageEvent) => void;
  onError?: (error: TalaErrorEvent) => void;
}

export function TalaWidget(props: TalaWidgetProps): null {
  const { apiKey, host, nonce, position, locale, userToken } = props;
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const onOpen = () => latest.current.onOpen?.();
    const onClose = () => latest.current.onClose?.();
    const onMessage = (m: TalaMessageEvent) => latest.current.onMessage?.(m);
    const onError = (e: TalaErrorEvent) => latest.current.onError?.(e);
    tala.on("open", onOpen);
    tala.on("close", onClose);
    tala.on("message", onMessage);
    tala.on("error", onError);
    tala.init({
      apiKey,
      host,
      nonce,
      position,
      locale: latest.current.locale,
      open: latest.current.open,
      userToken: latest.current.userToken,
      // The latest prop's callback, whenever the server refuses the token.
      refreshToken: () => latest.current.refreshToken?.(),
    });
    return () => {
      tala.off("open", onOpen);
      tala.off("close", onClose);
      tala.off("message", onMessage);
      tala.off("error", onError);
      tala.destroy();
    };
  }, [apiKey, host, nonce, position]);

  useEffect(() => {
    if (locale) tala.setLocale(locale);
  }, [locale]);

  // A new token signs the visitor in (or switches user); no token any more signs them out.
  // The first run only repeats what init was given (a no-op in the core).
  useEffect(() => {
    if (userToken) tala.identify(userToken);
    else tala.logout();
  }, [userToken]);

  return null;
}
