#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SGP4 {
    /// `sgp4init` (with `initl`): computes every coefficient the propagation needs.
    ///
    /// Never fails, as in the reference code: bad elements are reported by `propagate` (and
    /// `checkEpoch`). Names are Vallado's.
    public init(elements: MeanElements, gravity: GravityModel = .wgs72) {
        self.elements = elements
        self.gravity = gravity

        let radius = gravity.radiusEarthKm
        let xke = gravity.xke, j2 = gravity.j2, j4 = gravity.j4, j3oj2 = gravity.j3oj2
        let x2o3 = SGP4Math.twoThirds
        let ecco = elements.eccentricity, inclo = elements.inclination
        let argpo = elements.argumentOfPerigee, mo = elements.meanAnomaly
        let bstar = elements.bstar
        let epoch = elements.daysSince1950

        // Atmosphere: s and (q0 - s)^4 for the standard 78 km / 120 km altitudes.
        let ss = 78.0 / radius + 1.0
        let qzms2ttemp = (120.0 - 78.0) / radius
        let qzms2t = qzms2ttemp * qzms2ttemp * qzms2ttemp * qzms2ttemp

        // ---- initl: un-Kozai the mean motion, epoch quantities ----
        let eccsq = ecco * ecco
        let omeosq = 1.0 - eccsq
        let rteosq = sqrt(omeosq)
        let cosio = cos(inclo)
        let cosio2 = cosio * cosio

        let ak = pow(xke / elements.meanMotion, x2o3)
        let d1 = 0.75 * j2 * (3.0 * cosio2 - 1.0) / (rteosq * omeosq)
        var del = d1 / (ak * ak)
        let adel = ak * (1.0 - del * del - del * (1.0 / 3.0 + 134.0 * del * del / 81.0))
        del = d1 / (adel * adel)
        let no = elements.meanMotion / (1.0 + del)   // no_unkozai

        let ao = pow(xke / no, x2o3)
        let sinio = sin(inclo)
        let po = ao * omeosq
        let con42 = 1.0 - 5.0 * cosio2
        let con41 = -con42 - cosio2 - cosio2
        let posq = po * po
        let rp = ao * (1.0 - ecco)
        // Operation mode 'i': GMST at epoch by IAU-82.
        let gsto = SiderealTime.gmstVallado(julianDateUT1: epoch + SGP4Math.jd1950)

        noUnkozai = no
        self.gsto = gsto
        self.rp = rp
        self.con41 = con41

        // ---- sgp4init proper ----
        // (The reference's `if (omeosq >= 0.0 || no_unkozai >= 0.0)` is always true for
        // element sets that parsed: mean motion is positive.)
        isimp = rp < (220.0 / radius + 1.0)

        // Perigee below 156 km: adjust s and q0 - s (sfour, qzms24).
        var sfour = ss
        var qzms24 = qzms2t
        let perige = (rp - 1.0) * radius
        if perige < 156.0 {
            sfour = perige - 78.0
            if perige < 98.0 { sfour = 20.0 }
            let qzms24temp = (120.0 - sfour) / radius
            qzms24 = qzms24temp * qzms24temp * qzms24temp * qzms24temp
            sfour = sfour / radius + 1.0
        }

        let pinvsq = 1.0 / posq
        let tsi = 1.0 / (ao - sfour)
        let eta = ao * ecco * tsi
        let etasq = eta * eta
        let eeta = ecco * eta
        let psisq = fabs(1.0 - etasq)
        let coef = qzms24 * pow(tsi, 4.0)
        let coef1 = coef / pow(psisq, 3.5)
        let cc2 = coef1 * no * (ao * (1.0 + 1.5 * etasq + eeta * (4.0 + etasq))
            + 0.375 * j2 * tsi / psisq * con41 * (8.0 + 3.0 * etasq * (8.0 + etasq)))
        let cc1 = bstar * cc2
        var cc3 = 0.0
        if ecco > 1.0e-4 {
            cc3 = -2.0 * coef * tsi * j3oj2 * no * sinio / ecco
        }
        let x1mth2 = 1.0 - cosio2
        cc4 = 2.0 * no * coef1 * ao * omeosq
            * (eta * (2.0 + 0.5 * etasq) + ecco * (0.5 + 2.0 * etasq)
                - j2 * tsi / (ao * psisq)
                * (-3.0 * con41 * (1.0 - 2.0 * eeta + etasq * (1.5 - 0.5 * eeta))
                    + 0.75 * x1mth2 * (2.0 * etasq - eeta * (1.0 + etasq)) * cos(2.0 * argpo)))
        cc5 = 2.0 * coef1 * ao * omeosq * (1.0 + 2.75 * (etasq + eeta) + eeta * etasq)

        // Secular rates of M, argument of perigee and node.
        let cosio4 = cosio2 * cosio2
        let temp1 = 1.5 * j2 * pinvsq * no
        let temp2 = 0.5 * temp1 * j2 * pinvsq
        let temp3 = -0.46875 * j4 * pinvsq * pinvsq * no
        let mdot = no + 0.5 * temp1 * rteosq * con41
            + 0.0625 * temp2 * rteosq * (13.0 - 78.0 * cosio2 + 137.0 * cosio4)
        let argpdot = -0.5 * temp1 * con42 + 0.0625 * temp2 * (7.0 - 114.0 * cosio2 + 395.0 * cosio4)
            + temp3 * (3.0 - 36.0 * cosio2 + 49.0 * cosio4)
        let xhdot1 = -temp1 * cosio
        let nodedot = xhdot1 + (0.5 * temp2 * (4.0 - 19.0 * cosio2) + 2.0 * temp3 * (3.0 - 7.0 * cosio2)) * cosio
        let xpidot = argpdot + nodedot
        omgcof = bstar * cc3 * cos(argpo)
        xmcof = 0.0
        if ecco > 1.0e-4 {
            xmcof = -x2o3 * coef * bstar / eeta
        }
        nodecf = 3.5 * omeosq * xhdot1 * cc1
        t2cof = 1.5 * cc1
        // Guard the division for inclinations near 180°.
        if fabs(cosio + 1.0) > SGP4Math.temp4 {
            xlcof = -0.25 * j3oj2 * sinio * (3.0 + 5.0 * cosio) / (1.0 + cosio)
        } else {
            xlcof = -0.25 * j3oj2 * sinio * (3.0 + 5.0 * cosio) / SGP4Math.temp4
        }
        aycof = -0.5 * j3oj2 * sinio
        let delmotemp = 1.0 + eta * cos(mo)
        delmo = delmotemp * delmotemp * delmotemp
        sinmao = sin(mo)
        x7thm1 = 7.0 * cosio2 - 1.0

        self.cc1 = cc1
        self.eta = eta
        self.x1mth2 = x1mth2
        self.mdot = mdot
        self.argpdot = argpdot
        self.nodedot = nodedot

        // ---- deep space initialisation (period >= 225 min) ----
        if 2.0 * SGP4Math.pi / no >= 225.0 {
            isimp = true
            // dscom at tc = 0; dpper with init = 'y' leaves the epoch elements unchanged.
            let common = DeepSpaceCommon(epoch: epoch, ep: ecco, argpp: argpo, tc: 0.0,
                                         inclp: inclo, nodep: elements.raan, np: no)
            deepSpace = DeepSpace(common: common, xke: xke, gsto: gsto,
                                  argpo: argpo, mo: mo, nodeo: elements.raan, no: no,
                                  ecco: ecco, eccsq: eccsq, inclo: inclo,
                                  mdot: mdot, nodedot: nodedot, xpidot: xpidot, argpdot: argpdot)
        }

        // ---- higher-order drag terms for the non-simplified near-earth case ----
        if !isimp {
            let cc1sq = cc1 * cc1
            d2 = 4.0 * ao * tsi * cc1sq
            let temp = d2 * tsi * cc1 / 3.0
            d3 = (17.0 * ao + sfour) * temp
            d4 = 0.5 * temp * ao * tsi * (221.0 * ao + 31.0 * sfour) * cc1
            t3cof = d2 + 2.0 * cc1sq
            t4cof = 0.25 * (3.0 * d3 + cc1 * (12.0 * d2 + 10.0 * cc1sq))
            t5cof = 0.2 * (3.0 * d4 + 12.0 * cc1 * d3 + 6.0 * d2 * d2 + 15.0 * cc1sq * (2.0 * d2 + cc1sq))
        }
    }
}
