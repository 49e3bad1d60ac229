/** The desktop side panel (250 px, spec section 9), hidden below the md breakpoint. */
import { layout } from "../../../../contract";
import { NavList } from "./nav-list";

export function SidePanel() {
  return (
    // A plain column, not a second complementary landmark: the navigation inside is the landmark.
    <div className="hidden shrink-0 border-r border-line bg-canvas md:block" style={{ width: layout.sidePanelWidthPx }}>
      {/* The column keeps its border to the footer; the navigation itself stays in view while the page scrolls. */}
      <nav aria-label="Main" className="sticky top-14 max-h-[calc(100dvh-3.5rem)] overflow-y-auto p-3">
        <NavList />
      </nav>
    </div>
  );
}
