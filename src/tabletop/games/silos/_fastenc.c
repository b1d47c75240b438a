/* The compiled observation encoder of SILOS (docs/rl.md "The compiled path"): the extension
 * `tabletop.games.silos._fastenc`, built by setup.py (optional), used by `SilosEncoder.encode_fast` in encoding.py.
 *
 * A line-by-line translation of the pure-Python `SilosEncoder.encode_state`: the same fields read, the same
 * order of writes, every value computed in double and stored as float; tests/rl/test_encode.py compares the two (and
 * the view-based encoding) bit for bit on random states of every player count and option set. The state's fields
 * are fetched by the names the game declares in encoding.py, `ENCODED_FIELDS`, handed over once by `bind(names)`
 * (the enum below is their order there). The helpers are in src/tabletop/spaces/fastenc.h.
 */
#include "fastenc.h"

#define GAME "silos"

/* the state fields read, in the order of ENCODED_FIELDS (encoding.py) */
enum {
    F_plain, F_dist, F_leader, F_crop, F_rank, F_focus, F_abd_cow, F_abd_human,
    F_alt, F_crop_tile, F_skills_on, F_skill, F_ufo, F_bag, F_hand, F_cow_pile,
    F_caps, F_emblem_supply, F_deck, F_discard, F_revealed, F_stack, F_target, F_hum,
    F_held, F_fcards, F_emblems, F_cows, F_crop_left, F_to_move, F_active,
    NFIELDS
};
static PyObject *FIELDS[NFIELDS];

BIND_FUNCTION

enum {
    OC_SIZE, OC_N, OC_NF, OC_PERLOC, OC_LOC, OC_UFO, OC_RANKS, OC_BAG, OC_HAND, OC_SUPPLY, OC_DECK, OC_DISC, OC_PLAY,
    OC_LAST, OC_SEATS, OC_PERSEAT, OC_TARGET, OC_PHASE, OC_MOVE, OC_ACTIVE, OC_NPHASES, OC_DISC1, OC_DISC2, OC_KPOS,
    OC_FIGURES, OC_NSLOTS, OC_SLOTS /* then NSLOTS phase slots */
};


static PyObject *encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "encode(state, seat, cfg)"); return NULL; }
    REQUIRE_BOUND()
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
    if (!(plain = fetch(&F, state, FIELD(F_plain), 1)) || !(dist = fetch(&F, state, FIELD(F_dist), 1)) ||
        !(leader = fetch(&F, state, FIELD(F_leader), 1)) || !(crop = fetch(&F, state, FIELD(F_crop), 1)) ||
        !(rank = fetch(&F, state, FIELD(F_rank), 1)) || !(focus = fetch(&F, state, FIELD(F_focus), 1)) ||
        !(abd_cow = fetch(&F, state, FIELD(F_abd_cow), 1)) || !(abd_human = fetch(&F, state, FIELD(F_abd_human), 1)) ||
        !(skill = fetch(&F, state, FIELD(F_skill), 1)) || !(bag = fetch(&F, state, FIELD(F_bag), 1)) ||
        !(hand = fetch(&F, state, FIELD(F_hand), 1)) || !(deck = fetch(&F, state, FIELD(F_deck), 1)) ||
        !(discard = fetch(&F, state, FIELD(F_discard), 1)) || !(stack = fetch(&F, state, FIELD(F_stack), 1)) ||
        !(hum = fetch(&F, state, FIELD(F_hum), 1)) || !(held = fetch(&F, state, FIELD(F_held), 1)) ||
        !(fcards = fetch(&F, state, FIELD(F_fcards), 1)) || !(emblems = fetch(&F, state, FIELD(F_emblems), 1)) ||
        !(cows = fetch(&F, state, FIELD(F_cows), 1)) || !(crop_left = fetch(&F, state, FIELD(F_crop_left), 1)))
        goto done;
    if (!(ba = new_out(&out, C[OC_SIZE]))) goto done;
    long long fac[8];
    if (nf > 8 || n < 1) { PyErr_SetString(PyExc_ValueError, "silos factions"); goto done; }
    for (long long f = 0; f < nf; f++) fac[f] = f < n ? pymod(f - me, n) : n;
    if (!(v = fetch(&F, state, FIELD(F_alt), 0))) goto done;
    long long alt = geti(v, &err);
    if (!(v = fetch(&F, state, FIELD(F_crop_tile), 0))) goto done;
    long long crop_tile = geti(v, &err);
    if (!(v = fetch(&F, state, FIELD(F_skills_on), 0))) goto done;
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
    if (!(v = fetch(&F, state, FIELD(F_ufo), 0))) goto done;
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
    if (!(v = fetch(&F, state, FIELD(F_cow_pile), 0))) goto done;
    put(&out, C[OC_SUPPLY], (double)geti(v, &err) / 12.0);
    if (!(v = fetch(&F, state, FIELD(F_caps), 0))) goto done;
    put(&out, C[OC_SUPPLY] + 1, (double)geti(v, &err) / 12.0);
    if (!(v = fetch(&F, state, FIELD(F_emblem_supply), 0))) goto done;
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
    if (!(v = fetch(&F, state, FIELD(F_revealed), 0))) goto done;
    long long rev = geti(v, &err);
    put(&out, C[OC_LAST] + (rev < 0 ? 0 : 1 + rev), 1);
    /* seats */
    if (!(v = fetch(&F, state, FIELD(F_target), 0))) goto done;
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
    if (!(v = fetch(&F, state, FIELD(F_to_move), 0))) goto done;
    if (v != Py_None) put(&out, C[OC_MOVE] + pymod(geti(v, &err) - me, n), 1);
    if (!(v = fetch(&F, state, FIELD(F_active), 0))) goto done;
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

static PyMethodDef methods[] = {
    {"encode", (PyCFunction)(void (*)(void))encode, METH_FASTCALL, "encode(state, seat, cfg) -> bytearray of float32"},
    {"bind", (PyCFunction)bind, METH_O,
     "bind(names): the names of the state fields read, ENCODED_FIELDS' names in order (once, at import)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastenc", "The compiled observation encoder of SILOS (see its encoding.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastenc(void) { return PyModule_Create(&module); }
