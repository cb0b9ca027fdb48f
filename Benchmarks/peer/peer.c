// The peers animc-bench's `peer` section measures in its own process, interleaved
// with animc: rlottie's scene update (through its C API, no raster) and a plain C
// floor doing the grid scene's maths with nothing in the way. Built by run.sh as a
// shared library that animc-bench opens with dlopen, so the Swift package itself
// links nothing. The rlottie half is compiled only when `pkg-config rlottie`
// succeeds (-DPEER_RLOTTIE).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef PEER_RLOTTIE
#include <rlottie_capi.h>
#endif

int peer_has_rlottie(void) {
#ifdef PEER_RLOTTIE
    return 1;
#else
    return 0;
#endif
}

// MARK: - rlottie

void *peer_rlottie_load(const char *path) {
#ifdef PEER_RLOTTIE
    return lottie_animation_from_file(path);
#else
    (void)path;
    return NULL;
#endif
}

size_t peer_rlottie_frame_count(void *animation) {
#ifdef PEER_RLOTTIE
    return animation ? lottie_animation_get_totalframe(animation) : 0;
#else
    (void)animation;
    return 0;
#endif
}

/// Updates the scene for `frames` frames, `rounds` times, as a player does before it
/// rasterises: every layer's transform, opacity and paths (lottie_animation_render_tree).
/// Returns a checksum so that nothing is optimised away.
double peer_rlottie_run(void *animation, size_t frames, size_t rounds) {
    double sum = 0;
#ifdef PEER_RLOTTIE
    if (!animation) return 0;
    size_t w = 0, h = 0;
    lottie_animation_get_size(animation, &w, &h);
    for (size_t r = 0; r < rounds; r++) {
        for (size_t i = 0; i < frames; i++) {
            const LOTLayerNode *root = lottie_animation_render_tree(animation, i, w, h);
            if (root) sum += (double)root->mLayerList.size + root->mAlpha;
        }
    }
#else
    (void)animation; (void)frames; (void)rounds;
#endif
    return sum;
}

void peer_rlottie_destroy(void *animation) {
#ifdef PEER_RLOTTIE
    if (animation) lottie_animation_destroy(animation);
#else
    (void)animation;
#endif
}

// MARK: - The floor

/// The grid scene laid out as plain arrays (structure of arrays): per tile its position,
/// ripple delay and ripple offset, and the outputs (a 4×4 matrix and an opacity).
typedef struct {
    size_t n;
    double *x, *y, *delay, *dx, *dy;
    int *cursor;
    double *world, *opacity;
} Floor;

static const double keyTimes[5] = {0, 0.61, 0.7, 0.887, 1};
static const double opacityKeys[5] = {0, 1, 0.45, 0.6, 0};
static const double scaleKeys[5] = {1, 1, 1.05, 1, 1};
static const double offsetKeys[5] = {0, 0, 1, 0, 0};

void *peer_floor_make(size_t n, const double *x, const double *y, const double *delay, const double *dx, const double *dy) {
    Floor *f = calloc(1, sizeof(Floor));
    if (!f) return NULL;
    f->n = n;
    f->x = malloc(n * sizeof(double)); f->y = malloc(n * sizeof(double));
    f->delay = malloc(n * sizeof(double));
    f->dx = malloc(n * sizeof(double)); f->dy = malloc(n * sizeof(double));
    f->cursor = calloc(n, sizeof(int));
    f->world = calloc(n * 16, sizeof(double));
    f->opacity = calloc(n, sizeof(double));
    memcpy(f->x, x, n * sizeof(double)); memcpy(f->y, y, n * sizeof(double));
    memcpy(f->delay, delay, n * sizeof(double));
    memcpy(f->dx, dx, n * sizeof(double)); memcpy(f->dy, dy, n * sizeof(double));
    return f;
}

/// cubic(0.25, 0, 0.2, 1) at x, solved as animc solves it: Newton from t = x inside a
/// bracket, to 1e-12 in t.
static double ease(double x) {
    const double cx = 0.75, bx = 3 * (0.2 - 0.25) - cx, ax = 1 - cx - bx;
    const double cy = 0, by = 3 * (1 - 0) - cy, ay = 1 - cy - by;
    double t = x, lo = 0, hi = 1;
    for (int i = 0; i < 16; i++) {
        double err = ((ax * t + bx) * t + cx) * t - x;
        if (err == 0) break;
        if (err < 0) lo = t; else hi = t;
        double next = t - err / ((3 * ax * t + 2 * bx) * t + cx);
        if (fabs(next - t) < 1e-12) { t = next; break; }
        t = (next > lo && next < hi) ? next : (lo + hi) * 0.5;
    }
    return ((ay * t + by) * t + cy) * t;
}

/// The grid scene's maths for `frames` frames at 60 fps, `rounds` times: per tile the
/// ripple group's time (delay, backwards fill, a timeOffset of 0.35 D, repeating
/// forever), the keyframe segment (a cursor per tile), one Bézier solve shared by the
/// three tracks, the three values, and the tile's matrix in the grid (anchor at its
/// centre, scale, position plus the additive offset, the grid's position).
double peer_floor_run(void *handle, size_t frames, size_t rounds) {
    Floor *f = handle;
    if (!f) return 0;
    const double D = 3, timeOffset = 0.35 * 3, anchor = 9, gridX = 0, gridY = 0;
    double sum = 0;
    for (size_t r = 0; r < rounds; r++) {
        for (size_t frame = 0; frame < frames; frame++) {
            double t = (double)frame / 60;
            for (size_t i = 0; i < f->n; i++) {
                double tau = t - f->delay[i];
                double local = (tau < 0 ? 0 : tau) + timeOffset;
                local -= D * floor(local / D);
                double p = local / D;
                int k = f->cursor[i];
                while (k < 3 && keyTimes[k + 1] <= p) k++;
                while (k > 0 && keyTimes[k] > p) k--;
                f->cursor[i] = k;
                double e = ease((p - keyTimes[k]) / (keyTimes[k + 1] - keyTimes[k]));
                double opacity = opacityKeys[k] + (opacityKeys[k + 1] - opacityKeys[k]) * e;
                double s = scaleKeys[k] + (scaleKeys[k + 1] - scaleKeys[k]) * e;
                double o = offsetKeys[k] + (offsetKeys[k + 1] - offsetKeys[k]) * e;
                double *w = f->world + i * 16;
                w[0] = s; w[1] = 0; w[2] = 0; w[3] = 0;
                w[4] = 0; w[5] = s; w[6] = 0; w[7] = 0;
                w[8] = 0; w[9] = 0; w[10] = s; w[11] = 0;
                w[12] = -anchor * s + f->x[i] + o * f->dx[i] + gridX;
                w[13] = -anchor * s + f->y[i] + o * f->dy[i] + gridY;
                w[14] = 0; w[15] = 1;
                f->opacity[i] = opacity;
            }
            sum += f->world[12] + f->opacity[f->n - 1];
        }
    }
    return sum;
}

void peer_floor_destroy(void *handle) {
    Floor *f = handle;
    if (!f) return;
    free(f->x); free(f->y); free(f->delay); free(f->dx); free(f->dy);
    free(f->cursor); free(f->world); free(f->opacity);
    free(f);
}
