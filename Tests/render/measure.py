"""What both renderer comparisons measure (compare_chromium.py, compare_thorvg.py): the
anti-aliased edges of a picture, and a drawing's alpha-weighted centroid, coverage and
edge pixels."""
from PIL import ImageChops, ImageFilter


def edges(image):
    """Pixels whose 3×3 neighbourhood is not one colour (within 8/255): anti-aliased edges."""
    worst = None
    for band in image.split():
        spread = ImageChops.subtract(band.filter(ImageFilter.MaxFilter(3)), band.filter(ImageFilter.MinFilter(3)))
        worst = spread if worst is None else ImageChops.lighter(worst, spread)
    return worst.point(lambda v: 255 if v > 8 else 0)


def edge_count(alpha):
    """Partly covered pixels of an alpha channel."""
    return sum(1 for v in alpha.get_flattened_data() if 0 < v < 250)


def edge_share(alpha):
    """The share of a drawing's pixels that are partly covered: near 1 for thin strokes and
    small dots, whose coverage is each renderer's anti-aliasing more than its geometry."""
    data = alpha.get_flattened_data()
    covered = sum(1 for v in data if v > 0)
    return sum(1 for v in data if 0 < v < 250) / max(covered, 1)


def centroid_and_coverage(alpha):
    """The alpha-weighted centroid (None when nothing is drawn) and the coverage in pixels."""
    w = alpha.width
    data = alpha.get_flattened_data()
    total = sum(data) / 255.0
    if total == 0:
        return None, 0.0
    cx = sum(v * (i % w + 0.5) for i, v in enumerate(data)) / 255.0 / total
    cy = sum(v * (i // w + 0.5) for i, v in enumerate(data)) / 255.0 / total
    return (cx, cy), total

