"""The studies' figure sizes and type sizes, shared by the report, the ladders and the component-value figures."""

from __future__ import annotations

from typing import Any

PAGE_INCHES = 10.0
"""The widest figure, in inches at the saved 110 dpi: the page shows images up to 70rem (about 1,100 px) wide, so a
figure no wider than this is never scaled down and its 10-11 pt labels stay at least 10 pt on the page."""
FONTS: dict[Any, Any] = {"font.size": 11, "axes.titlesize": 11, "axes.labelsize": 11, "xtick.labelsize": 10,
                         "ytick.labelsize": 10, "legend.fontsize": 10, "legend.title_fontsize": 10}
"""The plots' type sizes in points (10 pt at 110 dpi is 15 px, about 11 pt on the page)."""
