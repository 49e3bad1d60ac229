/**
 * The widget's whole stylesheet, applied inside its shadow root only (nothing reaches the host
 * page). `:host{all:initial!important}`: an important declaration inside a shadow tree wins over
 * the page's important ones (CSS Cascade 4, context), so even `* { all: unset !important }` on the
 * page cannot move, hide or restyle the widget, and nothing is inherited from the page. The host
 * is fixed and has no size: no layout shift. Themed by --p (primary) and --op (text on it) on .w.
 * Order matters: `.cp` (a source chip) comes before the shared pressed/expanded fill, so an open
 * chip is filled with --p under its --op text.
 */
export const css = `:host{all:initial!important;position:fixed!important;z-index:2147483000!important}
.w{--bg:#fff;--fg:#111827;--mu:#5b6472;--sf:#f1f3f6;--bd:#e3e6ea;font:14px/1.5 system-ui,sans-serif;color:var(--fg)}
.dk{--bg:#14171c;--fg:#f3f4f6;--mu:#a3aab5;--sf:#22262e;--bd:#353b46}
*{box-sizing:border-box;font:inherit;color:inherit;margin:0;padding:0;background:none;border:0}
button{cursor:pointer}
:focus-visible{outline:2px solid var(--fg);outline-offset:2px}
.h :focus-visible{outline-color:var(--op)}
.cp{padding:2px 10px;border-radius:99px;border:1px solid var(--p);background:color-mix(in srgb,var(--p) 12%,var(--bg));font-size:12px;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.l,.h,.sd,[aria-pressed=true],[aria-expanded=true]{background:var(--p);color:var(--op)}
.l,.p{position:fixed;box-shadow:0 8px 32px #0004}
.l{--y:20px;width:56px;height:56px;border-radius:50%}
.l,.i{display:flex;align-items:center;justify-content:center}
svg{fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;width:18px;height:18px}
.l svg{width:26px;height:26px}
.br>*,.tr>*{right:20px}.bl>*,.tl>*{left:20px}.br>*,.bl>*{bottom:var(--y)}.tr>*,.tl>*{top:var(--y)}
.p{--y:88px;width:var(--pw,380px);height:var(--ph,560px);max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:16px;display:flex;flex-direction:column;overflow:hidden}
.s{--pw:320px;--ph:460px}.lg{--pw:440px;--ph:680px}
.h{display:flex;align-items:center;gap:4px;padding:10px 8px;padding-inline-start:16px}
.h b{flex:1;font-weight:600;font-size:15px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.h small{display:block;font-size:12px;font-weight:400;overflow:hidden;text-overflow:ellipsis}
.av{position:relative;flex:none;width:32px;height:32px;border-radius:50%;overflow:hidden;display:grid;place-items:center;font-weight:600;background:color-mix(in srgb,var(--op) 25%,var(--p))}
.av[data-i]:before{content:attr(data-i)/""}
.av img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;background:var(--bg)}
.i{width:34px;height:34px;border-radius:8px;flex:none}
.g{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px}
.m1{max-width:85%;padding:8px 12px;border-radius:14px;background:var(--sf);align-self:flex-start;overflow-wrap:anywhere}
.u{align-self:flex-end;white-space:pre-wrap;background:var(--p);color:var(--op)}
.f{background:var(--bg);color:var(--fg);border:1px dashed}
.t{font-size:12px;opacity:.75;display:block}.u .t{opacity:1}
.md>*+*,.src{margin-top:8px}ul,ol{padding-inline-start:20px}
a{text-decoration:underline}
code{font-family:monospace;background:#8882;padding:0 4px;border-radius:4px}
pre{overflow-x:auto;background:#8882;padding:8px;border-radius:8px;direction:ltr;text-align:left}
blockquote{border-inline-start:3px solid var(--bd);padding-inline-start:8px}
.src{border-top:1px solid var(--bd);padding-top:6px;display:flex;flex-wrap:wrap;align-items:center;gap:4px}
.src .t,.src p{flex-basis:100%}.src a{display:block}
.sq{border:0;margin:0;padding:0}.sq .cp{white-space:normal;text-align:start;padding:6px 12px;font-size:13px}
.rt{display:flex;margin:4px -6px -4px}.rt>*+* svg{transform:rotate(180deg)}
.src p,blockquote,.left{color:var(--mu)}
.ty{display:flex;gap:4px;padding:14px 12px}
.ty i{width:7px;height:7px;border-radius:50%;background:var(--mu);animation:b 1.2s infinite}
.ty i+i{animation-delay:.2s}.ty i+i+i{animation-delay:.4s}
@keyframes b{30%{transform:translateY(-4px)}60%{transform:none}}
.n{margin:0 12px 8px;padding:8px 10px;border-radius:10px;background:var(--sf)}
.bt{padding:4px 10px;margin-top:6px;margin-inline-end:8px;border-radius:8px;border:1px solid var(--bd)}
.left{font-size:12px;padding:0 14px 6px}
.c{display:flex;align-items:flex-end;gap:6px;padding:10px;border-top:1px solid var(--bd);flex-wrap:wrap}
textarea{flex:1;min-width:0;resize:none;field-sizing:content;min-height:38px;max-height:120px;padding:8px 10px;border:1px solid var(--bd);border-radius:10px}
@media(pointer:coarse){textarea{font-size:16px}}
:disabled{opacity:.5;cursor:default}
.x{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media (max-width:480px){.w .p{inset:0;width:100%;height:100%;max-width:none;max-height:none;border-radius:0;border:0}}
@media (prefers-reduced-motion:reduce){.ty i{animation:none}}`;
