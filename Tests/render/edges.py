"""The edge rule both renderer comparisons use (compare_chromium.py, compare_thorvg.py)."""
from PIL import ImageChops, ImageFilter


def edges(image):
    """Pixels whose 3×3 neighbourhood is not one colour (within 8/255): anti-aliased edges."""
    worst = None
    for band in image.split():
        spread = ImageChops.subtract(band.filter(ImageFilter.MaxFilter(3)), band.filter(ImageFilter.MinFilter(3)))
        worst = spread if worst is None else ImageChops.lighter(worst, spread)
    return worst.point(lambda v: 255 if v > 8 else 0)
