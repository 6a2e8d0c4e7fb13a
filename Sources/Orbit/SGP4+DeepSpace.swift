#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Deep-space (SDP4) terms for orbits of 225 minutes or more: lunar-solar perturbations and the
// geopotential resonances of 12- and 24-hour orbits. Vallado's routines map as follows:
//   dscom  -> DeepSpaceCommon.init      (common lunar-solar items)
//   dpper  -> DeepSpace.periodics       (lunar-solar periodics)
//   dsinit -> DeepSpace.init            (secular rates, resonance set-up)
//   dspace -> DeepSpace.secularAndResonance (secular effects and resonance integration)
// Variable names are Vallado's.

/// Coefficients of the lunar-solar periodics (`dpper`), computed by `dscom`.
struct LunarSolarPeriodics: Sendable {
    // Solar terms.
    var se2 = 0.0, se3 = 0.0, si2 = 0.0, si3 = 0.0, sl2 = 0.0, sl3 = 0.0, sl4 = 0.0
    var sgh2 = 0.0, sgh3 = 0.0, sgh4 = 0.0, sh2 = 0.0, sh3 = 0.0
    // Lunar terms.
    var ee2 = 0.0, e3 = 0.0, xi2 = 0.0, xi3 = 0.0, xl2 = 0.0, xl3 = 0.0, xl4 = 0.0
    var xgh2 = 0.0, xgh3 = 0.0, xgh4 = 0.0, xh2 = 0.0, xh3 = 0.0
    /// Mean anomalies of the Moon (`zmol`) and Sun (`zmos`) at epoch.
    var zmol = 0.0, zmos = 0.0
    // Vallado's peo, pinco, plo, pgho, pho are always zero (dscom sets them so), so the
    // subtraction of the epoch values in dpper is left out.
}

/// `dscom`: deep-space common items used by both the secular (`dsinit`) and periodic (`dpper`)
/// terms. `lsflg` pass 1 is the Sun (`ss*`, `sz*`), pass 2 the Moon (`s*`, `z*`).
struct DeepSpaceCommon {
    var sinim = 0.0, cosim = 0.0, emsq = 0.0
    var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0
    var ss1 = 0.0, ss2 = 0.0, ss3 = 0.0, ss4 = 0.0, ss5 = 0.0
    var sz1 = 0.0, sz3 = 0.0, sz11 = 0.0, sz13 = 0.0, sz21 = 0.0, sz23 = 0.0, sz31 = 0.0, sz33 = 0.0
    var z1 = 0.0, z3 = 0.0, z11 = 0.0, z13 = 0.0, z21 = 0.0, z23 = 0.0, z31 = 0.0, z33 = 0.0
    var periodics = LunarSolarPeriodics()

    /// - Parameters: `epoch` days since 1950, `ep` eccentricity, `argpp` argument of perigee,
    ///   `tc` minutes since epoch, `inclp` inclination, `nodep` node, `np` mean motion.
    init(epoch: Double, ep: Double, argpp: Double, tc: Double, inclp: Double, nodep: Double, np: Double) {
        let zes = 0.01675, zel = 0.05490
        let c1ss = 2.9864797e-6, c1l = 4.7968065e-7
        let zsinis = 0.39785416, zcosis = 0.91744867
        let zcosgs = 0.1945905, zsings = -0.98088458
        let twopi = SGP4Math.twoPi

        let nm = np
        let em = ep
        let snodm = sin(nodep), cnodm = cos(nodep)
        let sinomm = sin(argpp), cosomm = cos(argpp)
        sinim = sin(inclp)
        cosim = cos(inclp)
        emsq = em * em
        let betasq = 1.0 - emsq
        let rtemsq = sqrt(betasq)

        // Initialise lunar-solar terms.
        let day = epoch + 18261.5 + tc / 1440.0
        let xnodce = SGP4Math.fmod(4.5236020 - 9.2422029e-4 * day, twopi)
        let stem = sin(xnodce), ctem = cos(xnodce)
        let zcosil = 0.91375164 - 0.03568096 * ctem
        let zsinil = sqrt(1.0 - zcosil * zcosil)
        let zsinhl = 0.089683511 * stem / zsinil
        let zcoshl = sqrt(1.0 - zsinhl * zsinhl)
        let gam = 5.8351514 + 0.0019443680 * day
        var zx = 0.39785416 * stem / zsinil
        let zy = zcoshl * ctem + 0.91744867 * zsinhl * stem
        zx = atan2(zx, zy)
        zx = gam + zx - xnodce
        let zcosgl = cos(zx), zsingl = sin(zx)

        // Solar terms first (lsflg 1), then lunar (lsflg 2).
        var zcosg = zcosgs, zsing = zsings, zcosi = zcosis, zsini = zsinis
        var zcosh = cnodm, zsinh = snodm
        var cc = c1ss
        let xnoi = 1.0 / nm

        var s6 = 0.0, s7 = 0.0, ss6 = 0.0, ss7 = 0.0
        var z2 = 0.0, z12 = 0.0, z22 = 0.0, z32 = 0.0
        var sz2 = 0.0, sz12 = 0.0, sz22 = 0.0, sz32 = 0.0

        for lsflg in 1...2 {
            let a1 = zcosg * zcosh + zsing * zcosi * zsinh
            let a3 = -zsing * zcosh + zcosg * zcosi * zsinh
            let a7 = -zcosg * zsinh + zsing * zcosi * zcosh
            let a8 = zsing * zsini
            let a9 = zsing * zsinh + zcosg * zcosi * zcosh
            let a10 = zcosg * zsini
            let a2 = cosim * a7 + sinim * a8
            let a4 = cosim * a9 + sinim * a10
            let a5 = -sinim * a7 + cosim * a8
            let a6 = -sinim * a9 + cosim * a10

            let x1 = a1 * cosomm + a2 * sinomm
            let x2 = a3 * cosomm + a4 * sinomm
            let x3 = -a1 * sinomm + a2 * cosomm
            let x4 = -a3 * sinomm + a4 * cosomm
            let x5 = a5 * sinomm
            let x6 = a6 * sinomm
            let x7 = a5 * cosomm
            let x8 = a6 * cosomm

            z31 = 12.0 * x1 * x1 - 3.0 * x3 * x3
            z32 = 24.0 * x1 * x2 - 6.0 * x3 * x4
            z33 = 12.0 * x2 * x2 - 3.0 * x4 * x4
            z1 = 3.0 * (a1 * a1 + a2 * a2) + z31 * emsq
            z2 = 6.0 * (a1 * a3 + a2 * a4) + z32 * emsq
            z3 = 3.0 * (a3 * a3 + a4 * a4) + z33 * emsq
            z11 = -6.0 * a1 * a5 + emsq * (-24.0 * x1 * x7 - 6.0 * x3 * x5)
            z12 = -6.0 * (a1 * a6 + a3 * a5)
                + emsq * (-24.0 * (x2 * x7 + x1 * x8) - 6.0 * (x3 * x6 + x4 * x5))
            z13 = -6.0 * a3 * a6 + emsq * (-24.0 * x2 * x8 - 6.0 * x4 * x6)
            z21 = 6.0 * a2 * a5 + emsq * (24.0 * x1 * x5 - 6.0 * x3 * x7)
            z22 = 6.0 * (a4 * a5 + a2 * a6)
                + emsq * (24.0 * (x2 * x5 + x1 * x6) - 6.0 * (x4 * x7 + x3 * x8))
            z23 = 6.0 * a4 * a6 + emsq * (24.0 * x2 * x6 - 6.0 * x4 * x8)
            z1 = z1 + z1 + betasq * z31
            z2 = z2 + z2 + betasq * z32
            z3 = z3 + z3 + betasq * z33
            s3 = cc * xnoi
            s2 = -0.5 * s3 / rtemsq
            s4 = s3 * rtemsq
            s1 = -15.0 * em * s4
            s5 = x1 * x3 + x2 * x4
            s6 = x2 * x3 + x1 * x4
            s7 = x2 * x4 - x1 * x3

            if lsflg == 1 {
                // Keep the solar values, switch to the Moon.
                ss1 = s1; ss2 = s2; ss3 = s3; ss4 = s4; ss5 = s5; ss6 = s6; ss7 = s7
                sz1 = z1; sz2 = z2; sz3 = z3
                sz11 = z11; sz12 = z12; sz13 = z13
                sz21 = z21; sz22 = z22; sz23 = z23
                sz31 = z31; sz32 = z32; sz33 = z33
                zcosg = zcosgl
                zsing = zsingl
                zcosi = zcosil
                zsini = zsinil
                zcosh = zcoshl * cnodm + zsinhl * snodm
                zsinh = snodm * zcoshl - cnodm * zsinhl
                cc = c1l
            }
        }

        var p = LunarSolarPeriodics()
        p.zmol = SGP4Math.fmod(4.7199672 + 0.22997150 * day - gam, twopi)
        p.zmos = SGP4Math.fmod(6.2565837 + 0.017201977 * day, twopi)

        // Solar terms.
        p.se2 = 2.0 * ss1 * ss6
        p.se3 = 2.0 * ss1 * ss7
        p.si2 = 2.0 * ss2 * sz12
        p.si3 = 2.0 * ss2 * (sz13 - sz11)
        p.sl2 = -2.0 * ss3 * sz2
        p.sl3 = -2.0 * ss3 * (sz3 - sz1)
        p.sl4 = -2.0 * ss3 * (-21.0 - 9.0 * emsq) * zes
        p.sgh2 = 2.0 * ss4 * sz32
        p.sgh3 = 2.0 * ss4 * (sz33 - sz31)
        p.sgh4 = -18.0 * ss4 * zes
        p.sh2 = -2.0 * ss2 * sz22
        p.sh3 = -2.0 * ss2 * (sz23 - sz21)

        // Lunar terms.
        p.ee2 = 2.0 * s1 * s6
        p.e3 = 2.0 * s1 * s7
        p.xi2 = 2.0 * s2 * z12
        p.xi3 = 2.0 * s2 * (z13 - z11)
        p.xl2 = -2.0 * s3 * z2
        p.xl3 = -2.0 * s3 * (z3 - z1)
        p.xl4 = -2.0 * s3 * (-21.0 - 9.0 * emsq) * zel
        p.xgh2 = 2.0 * s4 * z32
        p.xgh3 = 2.0 * s4 * (z33 - z31)
        p.xgh4 = -18.0 * s4 * zel
        p.xh2 = -2.0 * s2 * z22
        p.xh3 = -2.0 * s2 * (z23 - z21)
        periodics = p
    }
}

/// Geopotential resonance of a deep-space orbit (`irez` 1 or 2) and its integrator constants.
enum Resonance: Sendable {
    /// `irez = 1`: one-day (synchronous) resonance, coefficients `del1`, `del2`, `del3`.
    case oneDay(del1: Double, del2: Double, del3: Double)
    /// `irez = 2`: half-day resonance, coefficients `d2201` ... `d5433`.
    case halfDay(d2201: Double, d2211: Double, d3210: Double, d3222: Double, d4410: Double,
                 d4422: Double, d5220: Double, d5232: Double, d5421: Double, d5433: Double)
}

/// The deep-space state built by `dsinit`.
struct DeepSpace: Sendable {
    let periodics: LunarSolarPeriodics
    /// Lunar-solar secular rates (per minute) of e, i, M, node and argument of perigee.
    let dedt: Double, didt: Double, dmdt: Double, dnodt: Double, domdt: Double
    /// The resonance, if any, with `xfact` and `xlamo` of the integrator.
    let resonance: Resonance?
    let xfact: Double, xlamo: Double
    // Epoch values the integrator and dpper need.
    let gsto: Double, argpo: Double, argpdot: Double, no: Double

    // Resonance constants.
    static let rptim = 4.37526908801129966e-3  // Earth rotation, rad/min (7.29211514668855e-5 rad/s)

    /// `dsinit` at t = 0 (tc = 0), using the `dscom` items.
    init(common c: DeepSpaceCommon, xke: Double, gsto: Double, argpo: Double, mo: Double,
         nodeo: Double, no: Double, ecco: Double, eccsq: Double, inclo: Double,
         mdot: Double, nodedot: Double, xpidot: Double, argpdot: Double) {
        let q22 = 1.7891679e-6, q31 = 2.1460748e-6, q33 = 2.2123015e-7
        let root22 = 1.7891679e-6, root44 = 7.3636953e-9, root54 = 2.1765803e-9
        let root32 = 3.7393792e-7, root52 = 1.1428639e-7
        let rptim = DeepSpace.rptim
        let x2o3 = SGP4Math.twoThirds
        let znl = 1.5835218e-4, zns = 1.19459e-5
        let pi = SGP4Math.pi, twopi = SGP4Math.twoPi

        periodics = c.periodics
        self.gsto = gsto
        self.argpo = argpo
        self.argpdot = argpdot
        self.no = no

        let sinim = c.sinim, cosim = c.cosim
        let nm = no          // dsinit is called with nm = no_unkozai
        let em = ecco        // and em from dscom, which is ecco
        let emsq = c.emsq
        let inclm = inclo    // and inclm = inclo

        // Resonance flag: 1 one-day, 2 half-day (eccentric 12 h orbits).
        var irez = 0
        if nm < 0.0052359877 && nm > 0.0034906585 { irez = 1 }
        if nm >= 8.26e-3 && nm <= 9.24e-3 && em >= 0.5 { irez = 2 }

        // Solar secular terms.
        let ses = c.ss1 * zns * c.ss5
        let sis = c.ss2 * zns * (c.sz11 + c.sz13)
        let sls = -zns * c.ss3 * (c.sz1 + c.sz3 - 14.0 - 6.0 * emsq)
        let sghs = c.ss4 * zns * (c.sz31 + c.sz33 - 6.0)
        var shs = -zns * c.ss2 * (c.sz21 + c.sz23)
        // sgp4fix for 180 deg incl
        if inclm < 5.2359877e-2 || inclm > pi - 5.2359877e-2 { shs = 0.0 }
        if sinim != 0.0 { shs = shs / sinim }
        let sgs = sghs - cosim * shs

        // Lunar secular terms.
        let dedt = ses + c.s1 * znl * c.s5
        let didt = sis + c.s2 * znl * (c.z11 + c.z13)
        let dmdt = sls - znl * c.s3 * (c.z1 + c.z3 - 14.0 - 6.0 * emsq)
        let sghl = c.s4 * znl * (c.z31 + c.z33 - 6.0)
        var shll = -znl * c.s2 * (c.z21 + c.z23)
        // sgp4fix for 180 deg incl
        if inclm < 5.2359877e-2 || inclm > pi - 5.2359877e-2 { shll = 0.0 }
        var domdt = sgs + sghl
        var dnodt = shs
        if sinim != 0.0 {
            domdt = domdt - cosim / sinim * shll
            dnodt = dnodt + shll / sinim
        }
        self.dedt = dedt
        self.didt = didt
        self.dmdt = dmdt
        self.dnodt = dnodt
        self.domdt = domdt

        // Deep-space resonance effects (dndt = 0 at epoch; elements are not advanced at t = 0).
        let theta = SGP4Math.fmod(gsto + 0.0 * rptim, twopi)
        var resonance: Resonance? = nil
        var xfact = 0.0, xlamo = 0.0
        if irez != 0 {
            let aonv = pow(nm / xke, x2o3)

            if irez == 2 {
                // Geopotential resonance for 12-hour orbits.
                let cosisq = cosim * cosim
                let em = ecco        // (Vallado swaps in ecco and eccsq here)
                let emsq = eccsq
                let eoc = em * emsq
                let g201 = -0.306 - (em - 0.64) * 0.440
                let g211, g310, g322, g410, g422, g520: Double
                if em <= 0.65 {
                    g211 = 3.616 - 13.2470 * em + 16.2900 * emsq
                    g310 = -19.302 + 117.3900 * em - 228.4190 * emsq + 156.5910 * eoc
                    g322 = -18.9068 + 109.7927 * em - 214.6334 * emsq + 146.5816 * eoc
                    g410 = -41.122 + 242.6940 * em - 471.0940 * emsq + 313.9530 * eoc
                    g422 = -146.407 + 841.8800 * em - 1629.014 * emsq + 1083.4350 * eoc
                    g520 = -532.114 + 3017.977 * em - 5740.032 * emsq + 3708.2760 * eoc
                } else {
                    g211 = -72.099 + 331.819 * em - 508.738 * emsq + 266.724 * eoc
                    g310 = -346.844 + 1582.851 * em - 2415.925 * emsq + 1246.113 * eoc
                    g322 = -342.585 + 1554.908 * em - 2366.899 * emsq + 1215.972 * eoc
                    g410 = -1052.797 + 4758.686 * em - 7193.992 * emsq + 3651.957 * eoc
                    g422 = -3581.690 + 16178.110 * em - 24462.770 * emsq + 12422.520 * eoc
                    if em > 0.715 {
                        g520 = -5149.66 + 29936.92 * em - 54087.36 * emsq + 31324.56 * eoc
                    } else {
                        g520 = 1464.74 - 4664.75 * em + 3763.64 * emsq
                    }
                }
                let g533, g521, g532: Double
                if em < 0.7 {
                    g533 = -919.22770 + 4988.6100 * em - 9064.7700 * emsq + 5542.21 * eoc
                    g521 = -822.71072 + 4568.6173 * em - 8491.4146 * emsq + 5337.524 * eoc
                    g532 = -853.66600 + 4690.2500 * em - 8624.7700 * emsq + 5341.4 * eoc
                } else {
                    g533 = -37995.780 + 161616.52 * em - 229838.20 * emsq + 109377.94 * eoc
                    g521 = -51752.104 + 218913.95 * em - 309468.16 * emsq + 146349.42 * eoc
                    g532 = -40023.880 + 170470.89 * em - 242699.48 * emsq + 115605.82 * eoc
                }

                let sini2 = sinim * sinim
                let f220 = 0.75 * (1.0 + 2.0 * cosim + cosisq)
                let f221 = 1.5 * sini2
                let f321 = 1.875 * sinim * (1.0 - 2.0 * cosim - 3.0 * cosisq)
                let f322 = -1.875 * sinim * (1.0 + 2.0 * cosim - 3.0 * cosisq)
                let f441 = 35.0 * sini2 * f220
                let f442 = 39.3750 * sini2 * sini2
                let f522 = 9.84375 * sinim * (sini2 * (1.0 - 2.0 * cosim - 5.0 * cosisq)
                    + 0.33333333 * (-2.0 + 4.0 * cosim + 6.0 * cosisq))
                let f523 = sinim * (4.92187512 * sini2 * (-2.0 - 4.0 * cosim + 10.0 * cosisq)
                    + 6.56250012 * (1.0 + 2.0 * cosim - 3.0 * cosisq))
                let f542 = 29.53125 * sinim * (2.0 - 8.0 * cosim
                    + cosisq * (-12.0 + 8.0 * cosim + 10.0 * cosisq))
                let f543 = 29.53125 * sinim * (-2.0 - 8.0 * cosim
                    + cosisq * (12.0 + 8.0 * cosim - 10.0 * cosisq))

                let xno2 = nm * nm
                let ainv2 = aonv * aonv
                var temp1 = 3.0 * xno2 * ainv2
                var temp = temp1 * root22
                let d2201 = temp * f220 * g201
                let d2211 = temp * f221 * g211
                temp1 = temp1 * aonv
                temp = temp1 * root32
                let d3210 = temp * f321 * g310
                let d3222 = temp * f322 * g322
                temp1 = temp1 * aonv
                temp = 2.0 * temp1 * root44
                let d4410 = temp * f441 * g410
                let d4422 = temp * f442 * g422
                temp1 = temp1 * aonv
                temp = temp1 * root52
                let d5220 = temp * f522 * g520
                let d5232 = temp * f523 * g532
                temp = 2.0 * temp1 * root54
                let d5421 = temp * f542 * g521
                let d5433 = temp * f543 * g533
                xlamo = SGP4Math.fmod(mo + nodeo + nodeo - theta - theta, twopi)
                xfact = mdot + dmdt + 2.0 * (nodedot + dnodt - rptim) - no
                resonance = .halfDay(d2201: d2201, d2211: d2211, d3210: d3210, d3222: d3222,
                                     d4410: d4410, d4422: d4422, d5220: d5220, d5232: d5232,
                                     d5421: d5421, d5433: d5433)
            } else {
                // Synchronous resonance terms.
                let g200 = 1.0 + emsq * (-2.5 + 0.8125 * emsq)
                let g310 = 1.0 + 2.0 * emsq
                let g300 = 1.0 + emsq * (-6.0 + 6.60937 * emsq)
                let f220 = 0.75 * (1.0 + cosim) * (1.0 + cosim)
                let f311 = 0.9375 * sinim * sinim * (1.0 + 3.0 * cosim) - 0.75 * (1.0 + cosim)
                var f330 = 1.0 + cosim
                f330 = 1.875 * f330 * f330 * f330
                var del1 = 3.0 * nm * nm * aonv * aonv
                let del2 = 2.0 * del1 * f220 * g200 * q22
                let del3 = 3.0 * del1 * f330 * g300 * q33 * aonv
                del1 = del1 * f311 * g310 * q31 * aonv
                xlamo = SGP4Math.fmod(mo + nodeo + argpo - theta, twopi)
                xfact = mdot + xpidot - rptim + dmdt + domdt + dnodt - no
                resonance = .oneDay(del1: del1, del2: del2, del3: del3)
            }
        }
        self.resonance = resonance
        self.xfact = xfact
        self.xlamo = xlamo
    }

    /// `dspace`: lunar-solar secular effects and the resonance (Euler-Maclaurin integration in
    /// 720-minute steps from the epoch) at `t` minutes. Takes and returns the mean elements.
    func secularAndResonance(t: Double, em: inout Double, argpm: inout Double, inclm: inout Double,
                             mm: inout Double, nodem: inout Double, nm: inout Double) {
        let fasx2 = 0.13130908, fasx4 = 2.8843198, fasx6 = 0.37448087
        let g22 = 5.7686396, g32 = 0.95240898, g44 = 1.8014998, g52 = 1.0508330, g54 = 4.4108898
        let rptim = DeepSpace.rptim
        let stepp = 720.0, stepn = -720.0, step2 = 259200.0

        // Secular effects.
        let tc = t
        let theta = SGP4Math.fmod(gsto + tc * rptim, SGP4Math.twoPi)
        em = em + dedt * t
        inclm = inclm + didt * t
        argpm = argpm + domdt * t
        nodem = nodem + dnodt * t
        mm = mm + dmdt * t

        guard let resonance else { return }

        // Numerical integration of the resonance, restarted at the epoch (atime = 0) each call.
        var atime = 0.0
        var xni = no
        var xli = xlamo
        let delt = t > 0.0 ? stepp : stepn
        var ft = 0.0
        var xndt = 0.0, xldot = 0.0, xnddt = 0.0
        while true {
            // Dot terms.
            switch resonance {
            case let .oneDay(del1, del2, del3):
                xndt = del1 * sin(xli - fasx2) + del2 * sin(2.0 * (xli - fasx4))
                    + del3 * sin(3.0 * (xli - fasx6))
                xldot = xni + xfact
                xnddt = del1 * cos(xli - fasx2) + 2.0 * del2 * cos(2.0 * (xli - fasx4))
                    + 3.0 * del3 * cos(3.0 * (xli - fasx6))
                xnddt = xnddt * xldot
            case let .halfDay(d2201, d2211, d3210, d3222, d4410, d4422, d5220, d5232, d5421, d5433):
                let xomi = argpo + argpdot * atime
                let x2omi = xomi + xomi
                let x2li = xli + xli
                xndt = d2201 * sin(x2omi + xli - g22) + d2211 * sin(xli - g22)
                    + d3210 * sin(xomi + xli - g32) + d3222 * sin(-xomi + xli - g32)
                    + d4410 * sin(x2omi + x2li - g44) + d4422 * sin(x2li - g44)
                    + d5220 * sin(xomi + xli - g52) + d5232 * sin(-xomi + xli - g52)
                    + d5421 * sin(xomi + x2li - g54) + d5433 * sin(-xomi + x2li - g54)
                xldot = xni + xfact
                xnddt = d2201 * cos(x2omi + xli - g22) + d2211 * cos(xli - g22)
                    + d3210 * cos(xomi + xli - g32) + d3222 * cos(-xomi + xli - g32)
                    + d5220 * cos(xomi + xli - g52) + d5232 * cos(-xomi + xli - g52)
                    + 2.0 * (d4410 * cos(x2omi + x2li - g44) + d4422 * cos(x2li - g44)
                        + d5421 * cos(xomi + x2li - g54) + d5433 * cos(-xomi + x2li - g54))
                xnddt = xnddt * xldot
            }

            // Integrator: whole steps while at least one step away, then the remainder ft.
            if fabs(t - atime) >= stepp {
                xli = xli + xldot * delt + xndt * step2
                xni = xni + xndt * delt + xnddt * step2
                atime = atime + delt
            } else {
                ft = t - atime
                break
            }
        }

        nm = xni + xndt * ft + xnddt * ft * ft * 0.5
        let xl = xli + xldot * ft + xndt * ft * ft * 0.5
        switch resonance {
        case .oneDay:
            mm = xl - nodem - argpm + theta
        case .halfDay:
            mm = xl - 2.0 * nodem + 2.0 * theta
        }
        let dndt = nm - no
        nm = no + dndt
    }

    /// `dpper` (init = 'n'): lunar-solar periodics at `t` minutes applied to the elements, with
    /// the Lyddane modification below 0.2 rad of (perturbed) inclination. Operation mode 'i'.
    func applyPeriodics(t: Double, ep: inout Double, inclp: inout Double, nodep: inout Double,
                        argpp: inout Double, mp: inout Double) {
        let zns = 1.19459e-5, zes = 0.01675, znl = 1.5835218e-4, zel = 0.05490
        let p = periodics

        // Time-varying periodics: Sun.
        var zm = p.zmos + zns * t
        var zf = zm + 2.0 * zes * sin(zm)
        var sinzf = sin(zf)
        var f2 = 0.5 * sinzf * sinzf - 0.25
        var f3 = -0.5 * sinzf * cos(zf)
        let ses = p.se2 * f2 + p.se3 * f3
        let sis = p.si2 * f2 + p.si3 * f3
        let sls = p.sl2 * f2 + p.sl3 * f3 + p.sl4 * sinzf
        let sghs = p.sgh2 * f2 + p.sgh3 * f3 + p.sgh4 * sinzf
        let shs = p.sh2 * f2 + p.sh3 * f3
        // Moon.
        zm = p.zmol + znl * t
        zf = zm + 2.0 * zel * sin(zm)
        sinzf = sin(zf)
        f2 = 0.5 * sinzf * sinzf - 0.25
        f3 = -0.5 * sinzf * cos(zf)
        let sel = p.ee2 * f2 + p.e3 * f3
        let sil = p.xi2 * f2 + p.xi3 * f3
        let sll = p.xl2 * f2 + p.xl3 * f3 + p.xl4 * sinzf
        let sghl = p.xgh2 * f2 + p.xgh3 * f3 + p.xgh4 * sinzf
        let shll = p.xh2 * f2 + p.xh3 * f3

        let pe = ses + sel
        let pinc = sis + sil
        let pl = sls + sll
        var pgh = sghs + sghl
        var ph = shs + shll

        inclp = inclp + pinc
        ep = ep + pe
        let sinip = sin(inclp)
        let cosip = cos(inclp)

        // Lyddane choice (GSFC): perturbed inclination against 0.2 rad (11.46°).
        if inclp >= 0.2 {
            // Apply periodics directly.
            ph = ph / sinip
            pgh = pgh - cosip * ph
            argpp = argpp + pgh
            nodep = nodep + ph
            mp = mp + pl
        } else {
            // Apply periodics with the Lyddane modification.
            let sinop = sin(nodep)
            let cosop = cos(nodep)
            var alfdp = sinip * sinop
            var betdp = sinip * cosop
            let dalf = ph * cosop + pinc * cosip * sinop
            let dbet = -ph * sinop + pinc * cosip * cosop
            alfdp = alfdp + dalf
            betdp = betdp + dbet
            nodep = SGP4Math.fmod(nodep, SGP4Math.twoPi)
            var xls = mp + argpp + cosip * nodep
            let dls = pl + pgh - pinc * nodep * sinip
            xls = xls + dls
            let xnoh = nodep
            nodep = atan2(alfdp, betdp)
            if fabs(xnoh - nodep) > SGP4Math.pi {
                if nodep < xnoh {
                    nodep = nodep + SGP4Math.twoPi
                } else {
                    nodep = nodep - SGP4Math.twoPi
                }
            }
            mp = mp + pl
            argpp = xls - mp - cosip * nodep
        }
    }
}
