/* The compiled observation encoder of SiliconVania (docs/rl.md "The compiled path"): the extension
 * `tabletop.games.siliconvania._fastenc`, built by setup.py (optional), used by `SiliconVaniaEncoder.encode_fast` in encoding.py.
 *
 * A line-by-line translation of the pure-Python `SiliconVaniaEncoder.encode_state`: the same fields read, the same
 * order of writes, every value computed in double and stored as float; tests/rl/test_encode.py compares the two (and
 * the view-based encoding) bit for bit on random states of every player count and option set. The state's fields
 * are fetched by the names the game declares in encoding.py, `ENCODED_FIELDS`, handed over once by `bind(names)`
 * (the enum below is their order there). The helpers are in src/tabletop/spaces/fastenc.h.
 */
#include "fastenc.h"

#define GAME "siliconvania"

/* the state fields read, in the order of ENCODED_FIELDS (encoding.py) */
enum {
    F_round, F_pools, F_xpool, F_row, F_tile_disc, F_tile_deck, F_spec_deck, F_vamp_sup,
    F_cat_sup, F_hound_sup, F_contract_sup, F_castle_sup, F_train_sup, F_anti_sup, F_revealed, F_order,
    F_to_move, F_stack, F_grid, F_anti, F_perim, F_vamp, F_cats, F_hounds,
    F_contracts, F_inn, F_surv, F_bid_hand, F_bid_events, F_objs, F_known, F_hand,
    F_disc, F_bid_spec, F_bid_card, F_bid_value, F_pending, F_shown, F_bid_disc,
    NFIELDS
};
static PyObject *FIELDS[NFIELDS];

BIND_FUNCTION

enum {
    VC_SIZE, VC_N, VC_NT, VC_NS, VC_ROUND, VC_POOLS, VC_EXCH, VC_ROW, VC_GONE, VC_DECKS, VC_SUPPLY, VC_ORDER,
    VC_MOVE, VC_DEC, VC_SEATS, VC_PERSEAT, VC_HAND, VC_DISC, VC_BIDS, VC_BIDDISC, VC_PENDING,
    VC_NRI, VC_RI, VC_NKIND, VC_KIND, VC_NDEC, VC_DECSLOT, VC_NBID, VC_BIDCOUNT, VC_BIDBITS, VC_HEADER
    /* then: RI table (NRI), KIND table (NKIND), DECSLOT table (NDEC), BIDCOUNT (NBID), BIDBITS (NBID);
       VC_RI ... hold the offsets of these tables in cfg */
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
    long long n = C[VC_N], nt = C[VC_NT], ns = C[VC_NS];
    Table ri = {C + C[VC_RI], C[VC_NRI]}, kinds = {C + C[VC_KIND], C[VC_NKIND]},
          decslot = {C + C[VC_DECSLOT], C[VC_NDEC]}, bidcount = {C + C[VC_BIDCOUNT], C[VC_NBID]},
          bidbits = {C + C[VC_BIDBITS], C[VC_NBID]};
    PyObject *pools, *xpool, *row, *tile_disc, *castle_sup, *train_sup, *anti_sup, *order, *stack, *grid, *anti,
        *perim, *vamp, *cats, *hounds, *contracts, *inn, *surv, *bid_hand, *bid_events, *objs, *known, *hand, *disc,
        *bid_spec, *bid_card, *bid_value, *pending, *shown, *bid_disc, *v;
    if (!(pools = fetch(&F, state, FIELD(F_pools), 1)) || !(xpool = fetch(&F, state, FIELD(F_xpool), 1)) ||
        !(row = fetch(&F, state, FIELD(F_row), 1)) || !(tile_disc = fetch(&F, state, FIELD(F_tile_disc), 1)) ||
        !(castle_sup = fetch(&F, state, FIELD(F_castle_sup), 1)) || !(train_sup = fetch(&F, state, FIELD(F_train_sup), 1)) ||
        !(anti_sup = fetch(&F, state, FIELD(F_anti_sup), 1)) || !(order = fetch(&F, state, FIELD(F_order), 1)) ||
        !(stack = fetch(&F, state, FIELD(F_stack), 1)) || !(grid = fetch(&F, state, FIELD(F_grid), 1)) ||
        !(anti = fetch(&F, state, FIELD(F_anti), 1)) || !(perim = fetch(&F, state, FIELD(F_perim), 1)) ||
        !(vamp = fetch(&F, state, FIELD(F_vamp), 1)) || !(cats = fetch(&F, state, FIELD(F_cats), 1)) ||
        !(hounds = fetch(&F, state, FIELD(F_hounds), 1)) || !(contracts = fetch(&F, state, FIELD(F_contracts), 1)) ||
        !(inn = fetch(&F, state, FIELD(F_inn), 1)) || !(surv = fetch(&F, state, FIELD(F_surv), 1)) ||
        !(bid_hand = fetch(&F, state, FIELD(F_bid_hand), 1)) || !(bid_events = fetch(&F, state, FIELD(F_bid_events), 1)) ||
        !(objs = fetch(&F, state, FIELD(F_objs), 1)) || !(known = fetch(&F, state, FIELD(F_known), 1)) ||
        !(hand = fetch(&F, state, FIELD(F_hand), 1)) || !(disc = fetch(&F, state, FIELD(F_disc), 1)) ||
        !(bid_spec = fetch(&F, state, FIELD(F_bid_spec), 1)) || !(bid_card = fetch(&F, state, FIELD(F_bid_card), 1)) ||
        !(bid_value = fetch(&F, state, FIELD(F_bid_value), 1)) || !(pending = fetch(&F, state, FIELD(F_pending), 1)) ||
        !(shown = fetch(&F, state, FIELD(F_shown), 1)) || !(bid_disc = fetch(&F, state, FIELD(F_bid_disc), 1)))
        goto done;
    if (!(ba = new_out(&out, C[VC_SIZE]))) goto done;
    /* board */
    if (!(v = fetch(&F, state, FIELD(F_round), 0))) goto done;
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
    if (!(v = fetch(&F, state, FIELD(F_tile_deck), 1))) goto done;
    put(&out, C[VC_DECKS], (double)LEN(v) / 88.0);
    if (!(v = fetch(&F, state, FIELD(F_spec_deck), 1))) goto done;
    put(&out, C[VC_DECKS] + 1, (double)LEN(v) / 70.0);
    long long b = C[VC_SUPPLY];
    if (!(v = fetch(&F, state, FIELD(F_vamp_sup), 0))) goto done;
    long long vs = geti(v, &err);
    put(&out, b, (double)(vs > 0 ? vs : 0) / 60.0);
    if (!(v = fetch(&F, state, FIELD(F_cat_sup), 0))) goto done;
    put(&out, b + 1, (double)geti(v, &err) / 15.0);
    if (!(v = fetch(&F, state, FIELD(F_hound_sup), 0))) goto done;
    put(&out, b + 2, (double)geti(v, &err) / 15.0);
    if (!(v = fetch(&F, state, FIELD(F_contract_sup), 0))) goto done;
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
    if (!(v = fetch(&F, state, FIELD(F_revealed), 0))) goto done;
    int revealed = truth(v, &err);
    if (revealed)
        for (Py_ssize_t k = 0; k < LEN(order); k++)
            put(&out, C[VC_ORDER] + k * n + pymod(geti(ITEM(order, k), &err) - me, n), 1);
    if (!(v = fetch(&F, state, FIELD(F_to_move), 0))) goto done;
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

static PyMethodDef methods[] = {
    {"encode", (PyCFunction)(void (*)(void))encode, METH_FASTCALL, "encode(state, seat, cfg) -> bytearray of float32"},
    {"bind", (PyCFunction)bind, METH_O,
     "bind(names): the names of the state fields read, ENCODED_FIELDS' names in order (once, at import)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastenc", "The compiled observation encoder of SiliconVania (see its encoding.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastenc(void) { return PyModule_Create(&module); }
