/* Compiled observation encoders (tabletop.rl.encode, docs/rl.md "The compiled path").
 *
 * Each function is a line-by-line translation of the pure-Python `encode_state` of its encoder
 * (SilencioEncoder, SilosEncoder, SiliconVaniaEncoder) and returns the observation as a zeroed-then-filled
 * bytearray of float32 values. Every value is computed in double and stored as float, exactly as the Python
 * version's writes into array("f"), so both give the same bits; tests/rl/test_encode.py compares them on random
 * states of every game, player count and option set. Offsets and lookup tables come from the Python encoder as one
 * array("q") (`cfg`, its layout is the `_cfg` method of each encoder). Reads only the state fields the Python
 * version reads. Optional: without a C compiler the package works with the Python version.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SEQ(o) (PyList_Check(o) || PyTuple_Check(o))
#define LEN(o) PySequence_Fast_GET_SIZE(o)
#define ITEM(o, i) PySequence_Fast_GET_ITEM(o, i)

typedef struct {
    float *o;
    Py_ssize_t size;
    int err;
} Out;

static inline void put(Out *out, long long i, double v) {
    if (i < 0 || i >= out->size) {
        if (!out->err) PyErr_Format(PyExc_IndexError, "observation index %lld out of range", i);
        out->err = 1;
        return;
    }
    out->o[i] = (float)v;
}

static inline long long geti(PyObject *x, int *err) {
    long long v = PyLong_AsLongLong(x);
    if (v == -1 && PyErr_Occurred()) *err = 1;
    return v;
}

static inline long long item(PyObject *seq, Py_ssize_t i, int *err) {
    if (i < 0) i += LEN(seq);
    if (i < 0 || i >= LEN(seq)) {
        if (!*err) PyErr_SetString(PyExc_IndexError, "state field index out of range");
        *err = 1;
        return 0;
    }
    return geti(ITEM(seq, i), err);
}

static inline int truth(PyObject *x, int *err) {
    int t = PyObject_IsTrue(x);
    if (t < 0) { *err = 1; return 0; }
    return t;
}

static inline double getd(PyObject *x, int *err) {
    double v = PyFloat_AsDouble(x);
    if (v == -1.0 && PyErr_Occurred()) *err = 1;
    return v;
}

static inline long long pymod(long long a, long long n) {
    long long r = a % n;
    return r < 0 ? r + n : r;
}

/* bit x of a Python int (any size, x >= 0) */
static int testbit(PyObject *v, long long x, int *err) {
    if (x < 0) return 0;
    if (x < 64) {
        unsigned long long m = PyLong_AsUnsignedLongLongMask(v);
        if (m == (unsigned long long)-1 && PyErr_Occurred()) { *err = 1; return 0; }
        return (int)((m >> x) & 1);
    }
    PyObject *sh = PyLong_FromLongLong(x);
    if (!sh) { *err = 1; return 0; }
    PyObject *r = PyNumber_Rshift(v, sh);
    Py_DECREF(sh);
    if (!r) { *err = 1; return 0; }
    unsigned long long m = PyLong_AsUnsignedLongLongMask(r);
    Py_DECREF(r);
    if (m == (unsigned long long)-1 && PyErr_Occurred()) { *err = 1; return 0; }
    return (int)(m & 1);
}

/* ---- attribute fetching ------------------------------------------------------------------------------------ */

#define MAXF 48
typedef struct {
    PyObject *v[MAXF];
    int n;
} Fields;

static PyObject *fetch(Fields *f, PyObject *state, PyObject *name, int need_seq) {
    PyObject *v = PyObject_GetAttr(state, name);
    if (!v) return NULL;
    f->v[f->n++] = v;
    if (need_seq && !SEQ(v)) {
        PyErr_Format(PyExc_TypeError, "state field %U is not a list or tuple", name);
        return NULL;
    }
    return v;
}

static void release(Fields *f) {
    for (int i = 0; i < f->n; i++) Py_DECREF(f->v[i]);
    f->n = 0;
}

static int get_cfg(PyObject *obj, Py_buffer *view, const long long **cfg, Py_ssize_t *n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "cfg must be an array('q')");
        return -1;
    }
    *cfg = (const long long *)view->buf;
    *n = view->len / 8;
    return 0;
}

static PyObject *new_out(Out *out, long long size) {
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(size * 4));
    if (!ba) return NULL;
    memset(PyByteArray_AS_STRING(ba), 0, (size_t)(size * 4));
    out->o = (float *)PyByteArray_AS_STRING(ba);
    out->size = (Py_ssize_t)size;
    out->err = 0;
    return ba;
}

static PyObject *N_(const char *s) { return PyUnicode_InternFromString(s); }

/* ---- Silencio ---------------------------------------------------------------------------------------------- */

enum {
    SC_SIZE, SC_N, SC_NC, SC_PER, SC_MAXV, SC_HAND, SC_KNOWN, SC_FRONT, SC_ORACLE, SC_BOX, SC_ROWS, SC_LAST,
    SC_DARK, SC_SHRINES, SC_SIZES, SC_DECK, SC_EFF, SC_RAND, SC_TAV, SC_SAID, SC_PHASE, SC_PEND, SC_MOVE, SC_TURN,
    SC_FIRST, SC_LEFT, SC_EFFECT, SC_OVER, SC_PASSING, SC_OPENS_AT, SC_NPEND, SC_PENDSLOT /* then NPEND slots */
};

static PyObject *S_hands, *S_known, *S_fronts, *S_oracle, *S_box, *S_rows, *S_halves, *S_shrines, *S_deck,
    *S_skip_dark, *S_skip_light, *S_green_only, *S_random_play, *S_tavern, *S_tavern_open, *S_tavern_count,
    *S_said, *S_phase, *S_pending, *S_to_move, *S_turn, *S_first;

static void cards(Out *out, PyObject *cs, long long base, long long per, int *err) {
    Py_ssize_t m = LEN(cs);
    for (Py_ssize_t k = 0; k < m; k++) {
        long long c = geti(ITEM(cs, k), err);
        put(out, base + (c >> 4) * per + (c & 15), 1);
    }
}

/* silencio(state, seat, cfg, said_cache) -> bytearray, or None if a tavern phrase is not in said_cache */
static PyObject *silencio(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) { PyErr_SetString(PyExc_TypeError, "silencio(state, seat, cfg, said_cache)"); return NULL; }
    PyObject *state = args[0], *cache = args[3];
    int err = 0;
    long long me = geti(args[1], &err);
    if (err) return NULL;
    if (!PyDict_Check(cache)) { PyErr_SetString(PyExc_TypeError, "said_cache must be a dict"); return NULL; }
    Py_buffer cv;
    const long long *C;
    Py_ssize_t ncfg;
    if (get_cfg(args[2], &cv, &C, &ncfg) < 0) return NULL;
    Fields F = {.n = 0};
    Out out;
    PyObject *ba = NULL, *result = NULL;
    long long n = C[SC_N], nc = C[SC_NC], per = C[SC_PER];
    PyObject *hands, *known, *fronts, *oracle, *box, *rows, *halves, *shrines, *deck, *said, *tm, *v;
    if (!(hands = fetch(&F, state, S_hands, 1)) || !(known = fetch(&F, state, S_known, 1)) ||
        !(fronts = fetch(&F, state, S_fronts, 1)) || !(oracle = fetch(&F, state, S_oracle, 1)) ||
        !(box = fetch(&F, state, S_box, 1)) || !(rows = fetch(&F, state, S_rows, 1)) ||
        !(halves = fetch(&F, state, S_halves, 1)) || !(shrines = fetch(&F, state, S_shrines, 1)) ||
        !(deck = fetch(&F, state, S_deck, 1)) || !(said = fetch(&F, state, S_said, 1)))
        goto done;
    if (LEN(hands) != n || LEN(fronts) != n || LEN(rows) != 4 || LEN(halves) != 4) {
        PyErr_SetString(PyExc_ValueError, "silencio state does not match the encoder's player count");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        if (!SEQ(ITEM(hands, k)) || !SEQ(ITEM(fronts, k))) { PyErr_SetString(PyExc_TypeError, "hands"); goto done; }
    for (Py_ssize_t k = 0; k < 4; k++)
        if (!SEQ(ITEM(rows, k)) || !SEQ(ITEM(halves, k))) { PyErr_SetString(PyExc_TypeError, "rows"); goto done; }
    /* said: every phrase must be cached (the caller fills the cache and retries on None) */
    Py_ssize_t ns = LEN(said);
    for (Py_ssize_t k = 0; k < ns; k++) {
        PyObject *e = ITEM(said, k);
        if (!SEQ(e) || LEN(e) != 2) { PyErr_SetString(PyExc_TypeError, "said"); goto done; }
        PyObject *slots = PyDict_GetItemWithError(cache, ITEM(e, 1));
        if (!slots) {
            if (PyErr_Occurred()) goto done;
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
    }
    if (!(ba = new_out(&out, C[SC_SIZE]))) goto done;
    if (me < 0 || me >= n) { PyErr_SetString(PyExc_ValueError, "seat out of range"); goto done; }
    unsigned long long bit = 1ULL << me;
    cards(&out, ITEM(hands, me), C[SC_HAND] - 2, per, &err);
    for (long long q = 0; q < n; q++) {
        if (q == me) continue;
        long long base = C[SC_KNOWN] + (pymod(q - me, n) - 1) * nc - 2;
        PyObject *h = ITEM(hands, q);
        for (Py_ssize_t k = 0; k < LEN(h); k++) {
            long long c = geti(ITEM(h, k), &err);
            if (err) break;
            if (item(known, c, &err) & bit) put(&out, base + (c >> 4) * per + (c & 15), 1);
        }
    }
    for (long long q = 0; q < n; q++)
        cards(&out, ITEM(fronts, q), C[SC_FRONT] + pymod(q - me, n) * nc - 2, per, &err);
    cards(&out, oracle, C[SC_ORACLE] - 2, per, &err);
    cards(&out, box, C[SC_BOX] - 2, per, &err);
    for (long long i = 0; i < 4; i++) {
        PyObject *row = ITEM(rows, i);
        long long base = C[SC_ROWS] + i * per - 2;
        Py_ssize_t m = LEN(row);
        for (Py_ssize_t k = 0; k < m; k++) {
            long long x = geti(ITEM(row, k), &err);
            if (x >= 2) put(&out, base + x, 1);
        }
        if (m) {
            put(&out, C[SC_LAST] + i, (double)geti(ITEM(row, m - 1), &err) / (double)C[SC_MAXV]);
            PyObject *hv = ITEM(halves, i);
            if (!LEN(hv)) { PyErr_SetString(PyExc_IndexError, "halves"); goto done; }
            put(&out, C[SC_DARK] + i, truth(ITEM(hv, LEN(hv) - 1), &err) ? 1 : 0);
        }
    }
    for (Py_ssize_t i = 0; i < LEN(shrines); i++)
        if (truth(ITEM(shrines, i), &err)) put(&out, C[SC_SHRINES] + i, 1);
    long long size = 0;
    for (long long q = 0; q < n; q++) {
        Py_ssize_t len = LEN(ITEM(hands, q));
        put(&out, C[SC_SIZES] + pymod(q - me, n), (double)len / 12.0);
        size += len;
    }
    put(&out, C[SC_DECK], (double)LEN(deck) / (double)nc);
    if (!(v = fetch(&F, state, S_skip_dark, 0))) goto done;
    put(&out, C[SC_EFF], getd(v, &err));
    if (!(v = fetch(&F, state, S_skip_light, 0))) goto done;
    put(&out, C[SC_EFF] + 1, getd(v, &err));
    if (!(v = fetch(&F, state, S_green_only, 0))) goto done;
    put(&out, C[SC_EFF] + 2, getd(v, &err));
    if (!(v = fetch(&F, state, S_random_play, 0))) goto done;
    long long rp = geti(v, &err);
    if (rp >= 0) put(&out, C[SC_RAND] + pymod(rp - me, n), 1);
    if (!(v = fetch(&F, state, S_tavern, 0))) goto done;
    if (truth(v, &err)) {
        put(&out, C[SC_TAV], 1);
        if (!(v = fetch(&F, state, S_tavern_open, 0))) goto done;
        put(&out, C[SC_TAV] + 1, getd(v, &err));
        if (!(v = fetch(&F, state, S_tavern_count, 0))) goto done;
        long long opens = C[SC_OPENS_AT] > 1 ? C[SC_OPENS_AT] : 1;
        put(&out, C[SC_TAV] + 2, (double)geti(v, &err) / (double)opens);
    }
    for (Py_ssize_t k = 0; k < ns; k++) {
        PyObject *e = ITEM(said, k);
        long long base = C[SC_SAID] + pymod(geti(ITEM(e, 0), &err) - me, n) * 9;
        PyObject *slots = PyDict_GetItemWithError(cache, ITEM(e, 1));
        if (!slots || !PyTuple_Check(slots)) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "said cache"); goto done; }
        if (PyTuple_GET_SIZE(slots) == 2) {
            put(&out, base + geti(PyTuple_GET_ITEM(slots, 0), &err), getd(PyTuple_GET_ITEM(slots, 1), &err));
        } else {
            long long a = geti(PyTuple_GET_ITEM(slots, 0), &err), b = geti(PyTuple_GET_ITEM(slots, 1), &err);
            for (long long j = base + a; j < base + b; j++) put(&out, j, 0);
            put(&out, base + geti(PyTuple_GET_ITEM(slots, 2), &err), 1);
        }
    }
    if (!(v = fetch(&F, state, S_phase, 0))) goto done;
    long long phase = geti(v, &err);
    put(&out, C[SC_PHASE] + phase, 1);
    if (phase == C[SC_EFFECT]) {
        if (!(v = fetch(&F, state, S_pending, 0))) goto done;
        long long p = geti(v, &err), np = C[SC_NPEND];
        if (p < 0) p += np;
        if (p < 0 || p >= np) { PyErr_SetString(PyExc_IndexError, "pending"); goto done; }
        long long k = C[SC_PENDSLOT + p];
        if (k >= 0) put(&out, C[SC_PEND] + k, 1);
    }
    if (!(tm = fetch(&F, state, S_to_move, 0))) goto done;
    if (tm != Py_None) put(&out, C[SC_MOVE] + pymod(geti(tm, &err) - me, n), 1);
    if (phase != C[SC_OVER] && phase != C[SC_PASSING]) {
        if (!(v = fetch(&F, state, S_turn, 0))) goto done;
        put(&out, C[SC_TURN] + pymod(geti(v, &err) - me, n), 1);
    }
    if (!(v = fetch(&F, state, S_first, 0))) goto done;
    put(&out, C[SC_FIRST] + pymod(geti(v, &err) - me, n), 1);
    for (long long q = 0; q < n; q++) size += LEN(ITEM(fronts, q));
    put(&out, C[SC_LEFT], (double)size / (double)nc);
    if (!err && !out.err) {
        result = ba;
        ba = NULL;
    }
done:
    Py_XDECREF(ba);
    release(&F);
    PyBuffer_Release(&cv);
    if (result == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "silencio encoder failed");
    return result;
}

/* ---- SILOS ------------------------------------------------------------------------------------------------- */

enum {
    OC_SIZE, OC_N, OC_NF, OC_PERLOC, OC_LOC, OC_UFO, OC_RANKS, OC_BAG, OC_HAND, OC_SUPPLY, OC_DECK, OC_DISC, OC_PLAY,
    OC_LAST, OC_SEATS, OC_PERSEAT, OC_TARGET, OC_PHASE, OC_MOVE, OC_ACTIVE, OC_NPHASES, OC_DISC1, OC_DISC2, OC_KPOS,
    OC_FIGURES, OC_NSLOTS, OC_SLOTS /* then NSLOTS phase slots */
};

static PyObject *O_plain, *O_dist, *O_leader, *O_crop, *O_rank, *O_focus, *O_abd_cow, *O_abd_human, *O_alt,
    *O_crop_tile, *O_skills_on, *O_skill, *O_ufo, *O_bag, *O_hand, *O_cow_pile, *O_caps, *O_emblem_supply, *O_deck,
    *O_discard, *O_revealed, *O_stack, *O_target, *O_hum, *O_held, *O_fcards, *O_emblems, *O_cows, *O_crop_left,
    *O_to_move, *O_active;

static PyObject *silos(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "silos(state, seat, cfg)"); return NULL; }
    PyObject *state = args[0];
    int err = 0;
    long long me = geti(args[1], &err);
    if (err) return NULL;
    Py_buffer cv;
    const long long *C;
    Py_ssize_t ncfg;
    if (get_cfg(args[2], &cv, &C, &ncfg) < 0) return NULL;
    Fields F = {.n = 0};
    Out out;
    PyObject *ba = NULL, *result = NULL;
    long long n = C[OC_N], nf = C[OC_NF];
    PyObject *plain, *dist, *leader, *crop, *rank, *focus, *abd_cow, *abd_human, *skill, *bag, *hand, *deck, *discard,
        *stack, *hum, *held, *fcards, *emblems, *cows, *crop_left, *v;
    if (!(plain = fetch(&F, state, O_plain, 1)) || !(dist = fetch(&F, state, O_dist, 1)) ||
        !(leader = fetch(&F, state, O_leader, 1)) || !(crop = fetch(&F, state, O_crop, 1)) ||
        !(rank = fetch(&F, state, O_rank, 1)) || !(focus = fetch(&F, state, O_focus, 1)) ||
        !(abd_cow = fetch(&F, state, O_abd_cow, 1)) || !(abd_human = fetch(&F, state, O_abd_human, 1)) ||
        !(skill = fetch(&F, state, O_skill, 1)) || !(bag = fetch(&F, state, O_bag, 1)) ||
        !(hand = fetch(&F, state, O_hand, 1)) || !(deck = fetch(&F, state, O_deck, 1)) ||
        !(discard = fetch(&F, state, O_discard, 1)) || !(stack = fetch(&F, state, O_stack, 1)) ||
        !(hum = fetch(&F, state, O_hum, 1)) || !(held = fetch(&F, state, O_held, 1)) ||
        !(fcards = fetch(&F, state, O_fcards, 1)) || !(emblems = fetch(&F, state, O_emblems, 1)) ||
        !(cows = fetch(&F, state, O_cows, 1)) || !(crop_left = fetch(&F, state, O_crop_left, 1)))
        goto done;
    if (!(ba = new_out(&out, C[OC_SIZE]))) goto done;
    long long fac[8];
    if (nf > 8 || n < 1) { PyErr_SetString(PyExc_ValueError, "silos factions"); goto done; }
    for (long long f = 0; f < nf; f++) fac[f] = f < n ? pymod(f - me, n) : n;
    if (!(v = fetch(&F, state, O_alt, 0))) goto done;
    long long alt = geti(v, &err);
    if (!(v = fetch(&F, state, O_crop_tile, 0))) goto done;
    long long crop_tile = geti(v, &err);
    if (!(v = fetch(&F, state, O_skills_on, 0))) goto done;
    int skills_on = truth(v, &err);
    /* locations */
    for (long long i = 0; i < 7; i++) {
        long long b = C[OC_LOC] + i * C[OC_PERLOC];
        long long ci = item(crop, i, &err);
        long long inf[8];
        for (long long f = 0; f < nf; f++) {
            long long j = f * 7 + i;
            long long pl = item(plain, j, &err), di = item(dist, j, &err);
            int le = item(leader, f, &err) == i;
            long long x = 2 * pl + 4 * di + (le ? 3 : 0) + (ci == f ? 2 : 0);
            inf[f] = x;
            if (pl || di || le) {
                long long k = b + fac[f] * 4;
                put(&out, k, (double)pl / 7.0);
                put(&out, k + 1, le);
                put(&out, k + 2, (double)di / 7.0);
            }
            if (x) put(&out, b + fac[f] * 4 + 3, (double)x / 2.0 / 10.0);
        }
        b += nf * 4;
        long long top = nf, best = 0;
        for (Py_ssize_t r = 0; r < LEN(rank); r++) {
            long long f = geti(ITEM(rank, r), &err);
            if (f < 0 || f >= nf) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "rank"); break; }
            if (inf[f] > best) { top = fac[f]; best = inf[f]; }
        }
        put(&out, b + top, 1);
        b += nf + 1;
        for (long long t = 0; t < 4; t++) {
            long long c = item(focus, i * 4 + t, &err);
            if (c) put(&out, b + t, (double)c / 7.0);
        }
        b += 4;
        if (i) {
            put(&out, b, item(abd_cow, i, &err) ? 1 : 0);
            long long h = item(abd_human, i, &err);
            put(&out, b + 1 + (h < 0 ? 0 : 1 + h), 1);
        } else {
            put(&out, b + 1, 1);
        }
        b += 6;
        put(&out, b, (double)((alt >> i) & 1));
        put(&out, b + 1, crop_tile == i);
        b += 2;
        if (ci >= nf) { PyErr_SetString(PyExc_IndexError, "crop circle faction"); goto done; }
        put(&out, b + (ci >= 0 ? fac[ci] : nf), 1);
        b += nf + 1;
        if (skills_on) {
            long long sk = item(skill, i, &err);
            if (sk >= nf) { PyErr_SetString(PyExc_IndexError, "skill tile faction"); goto done; }
            put(&out, b + (sk >= 0 ? 2 + fac[sk] : 1), 1);
        } else {
            put(&out, b, 1);
        }
        if (err || out.err) goto done;
    }
    /* supplies */
    if (!(v = fetch(&F, state, O_ufo, 0))) goto done;
    if (v != Py_None) put(&out, C[OC_UFO] + geti(v, &err), 1);
    for (Py_ssize_t r = 0; r < LEN(rank); r++) {
        long long f = geti(ITEM(rank, r), &err);
        if (f < 0 || f >= nf) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "rank"); goto done; }
        put(&out, C[OC_RANKS] + r * nf + fac[f], 1);
    }
    for (long long t = 0; t < 4; t++) {
        put(&out, C[OC_BAG] + t, (double)item(bag, t, &err) / 14.0);
        long long h = item(hand, t, &err);
        if (h) put(&out, C[OC_HAND] + t, (double)h / 4.0);
    }
    if (!(v = fetch(&F, state, O_cow_pile, 0))) goto done;
    put(&out, C[OC_SUPPLY], (double)geti(v, &err) / 12.0);
    if (!(v = fetch(&F, state, O_caps, 0))) goto done;
    put(&out, C[OC_SUPPLY] + 1, (double)geti(v, &err) / 12.0);
    if (!(v = fetch(&F, state, O_emblem_supply, 0))) goto done;
    put(&out, C[OC_SUPPLY] + 2, (double)geti(v, &err) / 20.0);
    long long in_play[4] = {0, 0, 0, 0};
    Py_ssize_t nst = LEN(stack);
    for (Py_ssize_t k = 0; k < nst; k++) {
        PyObject *fr = ITEM(stack, k);
        if (!SEQ(fr) || LEN(fr) < 3) { PyErr_SetString(PyExc_TypeError, "silos stack frame"); goto done; }
        long long kind = geti(ITEM(fr, 0), &err);
        if (kind == C[OC_DISC1] || kind == C[OC_DISC2]) {
            long long c = geti(ITEM(fr, 2), &err);
            if (c < -4 || c >= 4) { PyErr_SetString(PyExc_IndexError, "card in play"); goto done; }
            in_play[c < 0 ? c + 4 : c] += 1;
        }
    }
    for (long long k = 0; k < 4; k++) {
        put(&out, C[OC_DECK] + k, (double)item(deck, k, &err) / 8.0);
        put(&out, C[OC_DISC] + k, (double)item(discard, k, &err) / 8.0);
        put(&out, C[OC_PLAY] + k, (double)in_play[k] / 4.0);
    }
    if (!(v = fetch(&F, state, O_revealed, 0))) goto done;
    long long rev = geti(v, &err);
    put(&out, C[OC_LAST] + (rev < 0 ? 0 : 1 + rev), 1);
    /* seats */
    if (!(v = fetch(&F, state, O_target, 0))) goto done;
    long long target = geti(v, &err);
    int placing = 0;
    if (nst) {
        PyObject *fr = ITEM(stack, 0);
        placing = geti(ITEM(fr, 0), &err) == C[OC_KPOS];
    }
    for (long long p = 0; p < n; p++) {
        long long b = C[OC_SEATS] + fac[p] * C[OC_PERSEAT];
        for (long long t = 0; t < 4; t++) put(&out, b + t, (double)item(hum, p * 4 + t, &err) / 7.0);
        put(&out, b + 4, (double)item(cows, p, &err) / 6.0);
        long long em = item(emblems, p, &err);
        put(&out, b + 5, (double)em / 5.0);
        put(&out, b + 6, em >= target);
        for (long long k = 0; k < 3; k++) put(&out, b + 7 + k, !truth(ITEM(fcards, p * 3 + k), &err));
        for (long long k = 0; k < 4; k++) {
            long long h = item(held, p * 4 + k, &err);
            if (h) put(&out, b + 10 + k, (double)h / 2.0);
        }
        put(&out, b + 14, (double)item(crop_left, p, &err) / 3.0);
        if (placing) {
            long long on = 0;
            for (long long j = p * 7; j < p * 7 + 7; j++) on += item(plain, j, &err) + item(dist, j, &err);
            long long ld = item(leader, p, &err);
            on += (0 <= ld && ld < 7) ? 1 : 0;
            long long left = C[OC_FIGURES] - on;
            put(&out, b + 15, (double)(left > 0 ? left : 0) / 7.0);
        }
    }
    /* tail */
    put(&out, C[OC_TARGET], (double)target / 5.0);
    long long ph = C[OC_NPHASES] - 1;
    if (nst) {
        long long kind = geti(ITEM(ITEM(stack, nst - 1), 0), &err);
        if (kind < 0) kind += C[OC_NSLOTS];
        if (kind < 0 || kind >= C[OC_NSLOTS]) { PyErr_SetString(PyExc_IndexError, "silos frame kind"); goto done; }
        ph = C[OC_SLOTS + kind];
    }
    put(&out, C[OC_PHASE] + ph, 1);
    if (!(v = fetch(&F, state, O_to_move, 0))) goto done;
    if (v != Py_None) put(&out, C[OC_MOVE] + pymod(geti(v, &err) - me, n), 1);
    if (!(v = fetch(&F, state, O_active, 0))) goto done;
    if (v != Py_None) put(&out, C[OC_ACTIVE] + pymod(geti(v, &err) - me, n), 1);
    if (!err && !out.err) {
        result = ba;
        ba = NULL;
    }
done:
    Py_XDECREF(ba);
    release(&F);
    PyBuffer_Release(&cv);
    if (result == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "silos encoder failed");
    return result;
}

/* ---- SiliconVania ------------------------------------------------------------------------------------------ */

enum {
    VC_SIZE, VC_N, VC_NT, VC_NS, VC_ROUND, VC_POOLS, VC_EXCH, VC_ROW, VC_GONE, VC_DECKS, VC_SUPPLY, VC_ORDER,
    VC_MOVE, VC_DEC, VC_SEATS, VC_PERSEAT, VC_HAND, VC_DISC, VC_BIDS, VC_BIDDISC, VC_PENDING,
    VC_NRI, VC_RI, VC_NKIND, VC_KIND, VC_NDEC, VC_DECSLOT, VC_NBID, VC_BIDCOUNT, VC_BIDBITS, VC_HEADER
    /* then: RI table (NRI), KIND table (NKIND), DECSLOT table (NDEC), BIDCOUNT (NBID), BIDBITS (NBID);
       VC_RI ... hold the offsets of these tables in cfg */
};

static PyObject *V_round, *V_pools, *V_xpool, *V_row, *V_tile_disc, *V_tile_deck, *V_spec_deck, *V_vamp_sup,
    *V_cat_sup, *V_hound_sup, *V_contract_sup, *V_castle_sup, *V_train_sup, *V_anti_sup, *V_revealed, *V_order,
    *V_to_move, *V_stack, *V_grid, *V_anti, *V_perim, *V_vamp, *V_cats, *V_hounds, *V_contracts, *V_inn, *V_surv,
    *V_bid_hand, *V_bid_events, *V_objs, *V_known, *V_hand, *V_disc, *V_bid_spec, *V_bid_card, *V_bid_value,
    *V_pending, *V_shown, *V_bid_disc;

typedef struct {
    const long long *t;
    long long n;
} Table;

static inline long long look(Table tb, long long x, int *err) {
    if (x < 0) x += tb.n;
    if (x < 0 || x >= tb.n) {
        if (!*err) PyErr_SetString(PyExc_IndexError, "siliconvania lookup");
        *err = 1;
        return 0;
    }
    return tb.t[x];
}

/* rank index of specialist x (the encoder's rank_index dict): -1 if none */
static inline long long rank_of(Table ri, long long x) { return (x >= 0 && x < ri.n) ? ri.t[x] : -1; }

static inline PyObject *seq_at(PyObject *seq, Py_ssize_t i, int *err) {
    if (i < 0 || i >= LEN(seq)) { if (!*err) PyErr_SetString(PyExc_IndexError, "seat"); *err = 1; return NULL; }
    PyObject *x = ITEM(seq, i);
    if (!SEQ(x)) { if (!*err) PyErr_SetString(PyExc_TypeError, "per-seat field is not a list"); *err = 1; return NULL; }
    return x;
}

static PyObject *siliconvania(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "siliconvania(state, seat, cfg)"); return NULL; }
    PyObject *state = args[0];
    int err = 0;
    long long me = geti(args[1], &err);
    if (err) return NULL;
    Py_buffer cv;
    const long long *C;
    Py_ssize_t ncfg;
    if (get_cfg(args[2], &cv, &C, &ncfg) < 0) return NULL;
    Fields F = {.n = 0};
    Out out;
    PyObject *ba = NULL, *result = NULL;
    long long n = C[VC_N], nt = C[VC_NT], ns = C[VC_NS];
    Table ri = {C + C[VC_RI], C[VC_NRI]}, kinds = {C + C[VC_KIND], C[VC_NKIND]},
          decslot = {C + C[VC_DECSLOT], C[VC_NDEC]}, bidcount = {C + C[VC_BIDCOUNT], C[VC_NBID]},
          bidbits = {C + C[VC_BIDBITS], C[VC_NBID]};
    PyObject *pools, *xpool, *row, *tile_disc, *castle_sup, *train_sup, *anti_sup, *order, *stack, *grid, *anti,
        *perim, *vamp, *cats, *hounds, *contracts, *inn, *surv, *bid_hand, *bid_events, *objs, *known, *hand, *disc,
        *bid_spec, *bid_card, *bid_value, *pending, *shown, *bid_disc, *v;
    if (!(pools = fetch(&F, state, V_pools, 1)) || !(xpool = fetch(&F, state, V_xpool, 1)) ||
        !(row = fetch(&F, state, V_row, 1)) || !(tile_disc = fetch(&F, state, V_tile_disc, 1)) ||
        !(castle_sup = fetch(&F, state, V_castle_sup, 1)) || !(train_sup = fetch(&F, state, V_train_sup, 1)) ||
        !(anti_sup = fetch(&F, state, V_anti_sup, 1)) || !(order = fetch(&F, state, V_order, 1)) ||
        !(stack = fetch(&F, state, V_stack, 1)) || !(grid = fetch(&F, state, V_grid, 1)) ||
        !(anti = fetch(&F, state, V_anti, 1)) || !(perim = fetch(&F, state, V_perim, 1)) ||
        !(vamp = fetch(&F, state, V_vamp, 1)) || !(cats = fetch(&F, state, V_cats, 1)) ||
        !(hounds = fetch(&F, state, V_hounds, 1)) || !(contracts = fetch(&F, state, V_contracts, 1)) ||
        !(inn = fetch(&F, state, V_inn, 1)) || !(surv = fetch(&F, state, V_surv, 1)) ||
        !(bid_hand = fetch(&F, state, V_bid_hand, 1)) || !(bid_events = fetch(&F, state, V_bid_events, 1)) ||
        !(objs = fetch(&F, state, V_objs, 1)) || !(known = fetch(&F, state, V_known, 1)) ||
        !(hand = fetch(&F, state, V_hand, 1)) || !(disc = fetch(&F, state, V_disc, 1)) ||
        !(bid_spec = fetch(&F, state, V_bid_spec, 1)) || !(bid_card = fetch(&F, state, V_bid_card, 1)) ||
        !(bid_value = fetch(&F, state, V_bid_value, 1)) || !(pending = fetch(&F, state, V_pending, 1)) ||
        !(shown = fetch(&F, state, V_shown, 1)) || !(bid_disc = fetch(&F, state, V_bid_disc, 1)))
        goto done;
    if (!(ba = new_out(&out, C[VC_SIZE]))) goto done;
    /* board */
    if (!(v = fetch(&F, state, V_round, 0))) goto done;
    long long rnd = geti(v, &err);
    if (1 <= rnd && rnd <= 8) put(&out, C[VC_ROUND] + rnd - 1, 1);
    for (Py_ssize_t k = 0; k < LEN(pools); k++) {
        PyObject *pool = seq_at(pools, k, &err);
        if (!pool) goto done;
        long long base = C[VC_POOLS] + k * nt;
        for (Py_ssize_t j = 0; j < LEN(pool); j++) put(&out, base + geti(ITEM(pool, j), &err), 1);
    }
    for (Py_ssize_t j = 0; j < LEN(xpool); j++) put(&out, C[VC_EXCH] + geti(ITEM(xpool, j), &err), 1);
    for (Py_ssize_t j = 0; j < LEN(row); j++) {
        long long r = rank_of(ri, geti(ITEM(row, j), &err));
        if (r < 0) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "row specialist"); break; }
        put(&out, C[VC_ROW] + r, 1);
    }
    for (Py_ssize_t j = 0; j < LEN(tile_disc); j++) put(&out, C[VC_GONE] + geti(ITEM(tile_disc, j), &err), 1);
    if (!(v = fetch(&F, state, V_tile_deck, 1))) goto done;
    put(&out, C[VC_DECKS], (double)LEN(v) / 88.0);
    if (!(v = fetch(&F, state, V_spec_deck, 1))) goto done;
    put(&out, C[VC_DECKS] + 1, (double)LEN(v) / 70.0);
    long long b = C[VC_SUPPLY];
    if (!(v = fetch(&F, state, V_vamp_sup, 0))) goto done;
    long long vs = geti(v, &err);
    put(&out, b, (double)(vs > 0 ? vs : 0) / 60.0);
    if (!(v = fetch(&F, state, V_cat_sup, 0))) goto done;
    put(&out, b + 1, (double)geti(v, &err) / 15.0);
    if (!(v = fetch(&F, state, V_hound_sup, 0))) goto done;
    put(&out, b + 2, (double)geti(v, &err) / 15.0);
    if (!(v = fetch(&F, state, V_contract_sup, 0))) goto done;
    put(&out, b + 3, (double)geti(v, &err) / 15.0);
    for (Py_ssize_t j = 0; j < LEN(castle_sup); j++) put(&out, b + 4 + geti(ITEM(castle_sup, j), &err), 1);
    for (Py_ssize_t j = 0; j < LEN(train_sup); j++) put(&out, b + 11 + geti(ITEM(train_sup, j), &err), 1);
    long long counts[5] = {0, 0, 0, 0, 0};
    for (Py_ssize_t j = 0; j < LEN(anti_sup); j++) {
        long long k = look(kinds, geti(ITEM(anti_sup, j), &err), &err);
        if (k < 0 || k >= 5) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "kind"); break; }
        counts[k] += 1;
    }
    for (long long a = 0; a < 5; a++)
        if (counts[a]) put(&out, b + 17 + a, (double)counts[a] / 3.0);
    /* tail */
    if (!(v = fetch(&F, state, V_revealed, 0))) goto done;
    int revealed = truth(v, &err);
    if (revealed)
        for (Py_ssize_t k = 0; k < LEN(order); k++)
            put(&out, C[VC_ORDER] + k * n + pymod(geti(ITEM(order, k), &err) - me, n), 1);
    if (!(v = fetch(&F, state, V_to_move, 0))) goto done;
    if (v != Py_None) {
        put(&out, C[VC_MOVE] + pymod(geti(v, &err) - me, n), 1);
        Py_ssize_t nst = LEN(stack);
        if (nst) {
            PyObject *top = ITEM(stack, nst - 1);
            if (!SEQ(top) || !LEN(top)) { PyErr_SetString(PyExc_TypeError, "siliconvania task"); goto done; }
            long long kind = geti(ITEM(top, 0), &err);
            long long d = (kind >= 0 && kind < decslot.n) ? decslot.t[kind] : -1;
            if (d >= 0) put(&out, C[VC_DEC] + d, 1);
        }
    }
    if (err || out.err) goto done;
    /* seats */
    for (long long q = 0; q < n; q++) {
        PyObject *g = seq_at(grid, q, &err), *an = seq_at(anti, q, &err), *pe = seq_at(perim, q, &err),
                 *ev = seq_at(bid_events, q, &err), *ob = seq_at(objs, q, &err), *hd = seq_at(hand, q, &err),
                 *ds = seq_at(disc, q, &err), *pd = seq_at(pending, q, &err);
        if (err) goto done;
        long long bq = C[VC_SEATS] + pymod(q - me, n) * C[VC_PERSEAT];
        for (Py_ssize_t i = 0; i < LEN(g); i++) {
            long long t = geti(ITEM(g, i), &err);
            if (t >= 0) {
                put(&out, bq + 2 * i, 1);
                put(&out, bq + 2 * i + 1, (double)(t + 1) / 88.0);
            }
        }
        bq += 32;
        for (Py_ssize_t i = 0; i < LEN(an); i++) {
            long long x = geti(ITEM(an, i), &err);
            if (x >= 0) put(&out, bq + 5 * i + look(kinds, x, &err), 1);
        }
        bq += 80;
        for (Py_ssize_t i = 0; i < LEN(pe); i++) {
            long long p = geti(ITEM(pe, i), &err);
            if (0 <= p && p < 7) {
                put(&out, bq + 3 * i, 1);
                put(&out, bq + 24 + p, 1);
            } else if (7 <= p && p < 14) {
                put(&out, bq + 3 * i + 1, 1);
                put(&out, bq + 24 + p - 7, 1);
            } else if (p >= 20) {
                put(&out, bq + 3 * i + 2, 1);
            }
        }
        bq += 24 + 7;
        put(&out, bq, (double)item(vamp, q, &err) / 20.0);
        put(&out, bq + 1, (double)item(cats, q, &err) / 5.0);
        put(&out, bq + 2, (double)item(hounds, q, &err) / 5.0);
        put(&out, bq + 3, (double)item(contracts, q, &err) / 5.0);
        bq += 4;
        put(&out, bq, (double)item(inn, q, &err) / 20.0);
        put(&out, bq + 1, (double)item(surv, q, &err) / 20.0);
        bq += 2;
        long long bc = look(bidcount, item(bid_hand, q, &err), &err);
        put(&out, bq + (bc < 7 ? bc : 7), 1);
        bq += 8;
        Py_ssize_t ne = LEN(ev), e0 = ne > 8 ? ne - 8 : 0;
        for (Py_ssize_t k = e0; k < ne; k++) put(&out, bq + (k - e0), (double)geti(ITEM(ev, k), &err) / 7.0);
        bq += 8;
        for (Py_ssize_t k = 0; k < LEN(ob); k++) {
            long long r = rank_of(ri, geti(ITEM(ob, k), &err));
            if (r < 0) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "objective"); break; }
            put(&out, bq + r, 1);
        }
        bq += ns;
        if (q >= LEN(known) || q >= LEN(shown)) { PyErr_SetString(PyExc_IndexError, "known/shown"); goto done; }
        PyObject *kn = ITEM(known, q);
        int any_known = truth(kn, &err);
        for (Py_ssize_t k = 0; any_known && k < LEN(hd); k++) {
            long long x = geti(ITEM(hd, k), &err);
            if (testbit(kn, x, &err)) {
                long long r = rank_of(ri, x);
                if (r < 0) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "hand"); break; }
                put(&out, bq + r, 1);
            }
        }
        bq += ns;
        put(&out, bq, (double)LEN(hd) / 10.0);
        put(&out, bq + 1, (double)LEN(ds) / 10.0);
        long long spec = item(bid_spec, q, &err);
        put(&out, bq + 2, spec >= 0);
        bq += 3;
        if (revealed || (q == me && spec >= 0)) {
            long long card = item(bid_card, q, &err);
            put(&out, bq + card, 1);
            long long r = rank_of(ri, spec);
            if (r >= 0) put(&out, bq + 8 + r, 1);
        }
        bq += 8 + ns;
        if (revealed) {
            if (q >= LEN(bid_value)) { PyErr_SetString(PyExc_IndexError, "bid_value"); goto done; }
            PyObject *bv = ITEM(bid_value, q);
            long long x = (bv == Py_None) ? 0 : geti(bv, &err);
            put(&out, bq, (double)x / 7.0);
        }
        put(&out, bq + 1, (double)LEN(pd) / 4.0);
        bq += 2;
        PyObject *sh = ITEM(shown, q);
        if (truth(sh, &err) && LEN(ds)) {
            long long c = 0;
            for (Py_ssize_t k = 0; k < LEN(ds); k++) c += testbit(sh, geti(ITEM(ds, k), &err), &err);
            put(&out, bq, (double)c / 10.0);
        }
        put(&out, bq + 1, (double)LEN(ob) / 5.0);
        if (err || out.err) goto done;
    }
    /* mine */
    {
        PyObject *hd = seq_at(hand, me, &err), *ds = seq_at(disc, me, &err), *pd = seq_at(pending, me, &err);
        if (err) goto done;
        for (Py_ssize_t k = 0; k < LEN(hd); k++) {
            long long r = rank_of(ri, geti(ITEM(hd, k), &err));
            if (r < 0) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "hand"); break; }
            put(&out, C[VC_HAND] + r, 1);
        }
        for (Py_ssize_t k = 0; k < LEN(ds); k++) {
            long long r = rank_of(ri, geti(ITEM(ds, k), &err));
            if (r < 0) { err = 1; if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "discard"); break; }
            put(&out, C[VC_DISC] + r, 1);
        }
        long long bh = item(bid_hand, me, &err), bd = item(bid_disc, me, &err);
        if (bh) {
            long long bits = look(bidbits, bh, &err);
            for (long long c = 0; c < 8; c++)
                if (bits >> c & 1) put(&out, C[VC_BIDS] + c, 1);
        }
        if (bd) {
            long long bits = look(bidbits, bd, &err);
            for (long long c = 0; c < 8; c++)
                if (bits >> c & 1) put(&out, C[VC_BIDDISC] + c, 1);
        }
        for (Py_ssize_t k = 0; k < LEN(pd); k++) put(&out, C[VC_PENDING] + geti(ITEM(pd, k), &err), 1);
    }
    if (!err && !out.err) {
        result = ba;
        ba = NULL;
    }
done:
    Py_XDECREF(ba);
    release(&F);
    PyBuffer_Release(&cv);
    if (result == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "siliconvania encoder failed");
    return result;
}

/* ---- masks ------------------------------------------------------------------------------------------------- */

/* mask(n, indices) -> bytearray of n bytes, 1 at each index (ActionSpace.mask_of) */
static PyObject *mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "mask(n, indices)"); return NULL; }
    Py_ssize_t n = PyLong_AsSsize_t(args[0]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0) { PyErr_SetString(PyExc_ValueError, "mask size must be >= 0"); return NULL; }
    PyObject *idx = args[1];
    if (!SEQ(idx)) { PyErr_SetString(PyExc_TypeError, "indices must be a list or tuple"); return NULL; }
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, n);
    if (!ba) return NULL;
    char *buf = PyByteArray_AS_STRING(ba);
    memset(buf, 0, (size_t)n);
    for (Py_ssize_t k = 0; k < LEN(idx); k++) {
        Py_ssize_t i = PyLong_AsSsize_t(ITEM(idx, k));
        if (i == -1 && PyErr_Occurred()) { Py_DECREF(ba); return NULL; }
        if (i < 0) i += n;
        if (i < 0 || i >= n) {
            Py_DECREF(ba);
            PyErr_SetString(PyExc_IndexError, "bytearray index out of range");
            return NULL;
        }
        buf[i] = 1;
    }
    return ba;
}

/* ---- module ------------------------------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"silencio", (PyCFunction)(void (*)(void))silencio, METH_FASTCALL,
     "silencio(state, seat, cfg, said_cache) -> bytearray of float32, or None if a tavern phrase is not cached"},
    {"silos", (PyCFunction)(void (*)(void))silos, METH_FASTCALL, "silos(state, seat, cfg) -> bytearray of float32"},
    {"siliconvania", (PyCFunction)(void (*)(void))siliconvania, METH_FASTCALL,
     "siliconvania(state, seat, cfg) -> bytearray of float32"},
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL, "mask(n, indices) -> bytearray, 1 at each index"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastenc", "Compiled observation encoders (see tabletop.rl.encode).", -1, methods,
    NULL, NULL, NULL, NULL,
};

#define NAME(var, s) if (!(var = N_(s))) return NULL;

PyMODINIT_FUNC PyInit__fastenc(void) {
    NAME(S_hands, "hands") NAME(S_known, "known") NAME(S_fronts, "fronts") NAME(S_oracle, "oracle")
    NAME(S_box, "box") NAME(S_rows, "rows") NAME(S_halves, "halves") NAME(S_shrines, "shrines")
    NAME(S_deck, "deck") NAME(S_skip_dark, "skip_dark") NAME(S_skip_light, "skip_light")
    NAME(S_green_only, "green_only") NAME(S_random_play, "random_play") NAME(S_tavern, "tavern")
    NAME(S_tavern_open, "tavern_open") NAME(S_tavern_count, "tavern_count") NAME(S_said, "said")
    NAME(S_phase, "phase") NAME(S_pending, "pending") NAME(S_to_move, "to_move") NAME(S_turn, "turn")
    NAME(S_first, "first")
    NAME(O_plain, "plain") NAME(O_dist, "dist") NAME(O_leader, "leader") NAME(O_crop, "crop") NAME(O_rank, "rank")
    NAME(O_focus, "focus") NAME(O_abd_cow, "abd_cow") NAME(O_abd_human, "abd_human") NAME(O_alt, "alt")
    NAME(O_crop_tile, "crop_tile") NAME(O_skills_on, "skills_on") NAME(O_skill, "skill") NAME(O_ufo, "ufo")
    NAME(O_bag, "bag") NAME(O_hand, "hand") NAME(O_cow_pile, "cow_pile") NAME(O_caps, "caps")
    NAME(O_emblem_supply, "emblem_supply") NAME(O_deck, "deck") NAME(O_discard, "discard")
    NAME(O_revealed, "revealed") NAME(O_stack, "stack") NAME(O_target, "target") NAME(O_hum, "hum")
    NAME(O_held, "held") NAME(O_fcards, "fcards") NAME(O_emblems, "emblems") NAME(O_cows, "cows")
    NAME(O_crop_left, "crop_left") NAME(O_to_move, "to_move") NAME(O_active, "active")
    NAME(V_round, "round") NAME(V_pools, "pools") NAME(V_xpool, "xpool") NAME(V_row, "row")
    NAME(V_tile_disc, "tile_disc") NAME(V_tile_deck, "tile_deck") NAME(V_spec_deck, "spec_deck")
    NAME(V_vamp_sup, "vamp_sup") NAME(V_cat_sup, "cat_sup") NAME(V_hound_sup, "hound_sup")
    NAME(V_contract_sup, "contract_sup") NAME(V_castle_sup, "castle_sup") NAME(V_train_sup, "train_sup")
    NAME(V_anti_sup, "anti_sup") NAME(V_revealed, "revealed") NAME(V_order, "order") NAME(V_to_move, "to_move")
    NAME(V_stack, "stack") NAME(V_grid, "grid") NAME(V_anti, "anti") NAME(V_perim, "perim") NAME(V_vamp, "vamp")
    NAME(V_cats, "cats") NAME(V_hounds, "hounds") NAME(V_contracts, "contracts") NAME(V_inn, "inn")
    NAME(V_surv, "surv") NAME(V_bid_hand, "bid_hand") NAME(V_bid_events, "bid_events") NAME(V_objs, "objs")
    NAME(V_known, "known") NAME(V_hand, "hand") NAME(V_disc, "disc") NAME(V_bid_spec, "bid_spec")
    NAME(V_bid_card, "bid_card") NAME(V_bid_value, "bid_value") NAME(V_pending, "pending") NAME(V_shown, "shown")
    NAME(V_bid_disc, "bid_disc")
    return PyModule_Create(&module);
}
