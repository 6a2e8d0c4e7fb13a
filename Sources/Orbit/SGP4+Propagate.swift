#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SGP4 {
    /// `sgp4`: the TEME state `tsince` minutes after the epoch (negative before it).
    ///
    /// Throws the reference code's error codes 1, 2, 3, 4 and 6 (see `SGP4Error`).
    public func propagate(minutesSinceEpoch tsince: Double) throws(SGP4Error) -> TEMEState {
        let xke = gravity.xke, j2 = gravity.j2, j3oj2 = gravity.j3oj2
        let radius = gravity.radiusEarthKm
        let twopi = SGP4Math.twoPi, x2o3 = SGP4Math.twoThirds
        let vkmpersec = radius * xke / 60.0
        let t = tsince

        // ---- secular gravity and atmospheric drag ----
        let xmdf = elements.meanAnomaly + mdot * t
        let argpdf = elements.argumentOfPerigee + argpdot * t
        let nodedf = elements.raan + nodedot * t
        var argpm = argpdf
        var mm = xmdf
        let t2 = t * t
        var nodem = nodedf + nodecf * t2
        var tempa = 1.0 - cc1 * t
        var tempe = elements.bstar * cc4 * t
        var templ = t2cof * t2

        if !isimp {
            let delomg = omgcof * t
            let delmtemp = 1.0 + eta * cos(xmdf)
            let delm = xmcof * (delmtemp * delmtemp * delmtemp - delmo)
            let temp = delomg + delm
            mm = xmdf + temp
            argpm = argpdf - temp
            let t3 = t2 * t
            let t4 = t3 * t
            tempa = tempa - d2 * t2 - d3 * t3 - d4 * t4
            tempe = tempe + elements.bstar * cc5 * (sin(mm) - sinmao)
            templ = templ + t3cof * t3 + t4 * (t4cof + t * t5cof)
        }

        var nm = noUnkozai
        var em = elements.eccentricity
        var inclm = elements.inclination
        if let deepSpace {
            deepSpace.secularAndResonance(t: t, em: &em, argpm: &argpm, inclm: &inclm,
                                          mm: &mm, nodem: &nodem, nm: &nm)
        }

        if nm <= 0.0 { throw .meanMotion(nm) }

        let am = pow(xke / nm, x2o3) * tempa * tempa
        nm = xke / pow(am, 1.5)
        em = em - tempe

        // Mean elements out of range (Vallado 2006; later versions drop the am check).
        if em >= 1.0 || em < -0.001 || am < 0.95 {
            throw .meanElements(eccentricity: em, semiMajorAxis: am)
        }
        // sgp4fix: avoid a divide by zero.
        if em < 1.0e-6 { em = 1.0e-6 }
        mm = mm + noUnkozai * templ
        var xlm = mm + argpm + nodem
        nodem = SGP4Math.fmod(nodem, twopi)
        argpm = SGP4Math.fmod(argpm, twopi)
        xlm = SGP4Math.fmod(xlm, twopi)
        mm = SGP4Math.fmod(xlm - argpm - nodem, twopi)

        // ---- lunar-solar periodics (deep space) ----
        var ep = em
        var xincp = inclm
        var argpp = argpm
        var nodep = nodem
        var mp = mm
        var sinip = sin(inclm)
        var cosip = cos(inclm)
        var aycof = self.aycof
        var xlcof = self.xlcof
        var con41 = self.con41, x1mth2 = self.x1mth2, x7thm1 = self.x7thm1

        if let deepSpace {
            deepSpace.applyPeriodics(t: t, ep: &ep, inclp: &xincp, nodep: &nodep,
                                     argpp: &argpp, mp: &mp)
            if xincp < 0.0 {
                xincp = -xincp
                nodep = nodep + SGP4Math.pi
                argpp = argpp - SGP4Math.pi
            }
            if ep < 0.0 || ep > 1.0 { throw .perturbedEccentricity(ep) }

            // Long-period periodics with the perturbed inclination.
            sinip = sin(xincp)
            cosip = cos(xincp)
            aycof = -0.5 * j3oj2 * sinip
            if fabs(cosip + 1.0) > SGP4Math.temp4 {
                xlcof = -0.25 * j3oj2 * sinip * (3.0 + 5.0 * cosip) / (1.0 + cosip)
            } else {
                xlcof = -0.25 * j3oj2 * sinip * (3.0 + 5.0 * cosip) / SGP4Math.temp4
            }
        }

        // ---- long-period periodics ----
        let axnl = ep * cos(argpp)
        var temp = 1.0 / (am * (1.0 - ep * ep))
        let aynl = ep * sin(argpp) + temp * aycof
        let xl = mp + argpp + nodep + temp * xlcof * axnl

        // ---- Kepler's equation (Newton-Raphson, steps limited to 0.95 rad) ----
        let u = SGP4Math.fmod(xl - nodep, twopi)
        var eo1 = u
        var tem5 = 9999.9
        var ktr = 1
        var sineo1 = 0.0, coseo1 = 0.0
        while fabs(tem5) >= 1.0e-12 && ktr <= 10 {
            sineo1 = sin(eo1)
            coseo1 = cos(eo1)
            tem5 = 1.0 - coseo1 * axnl - sineo1 * aynl
            tem5 = (u - aynl * coseo1 + axnl * sineo1 - eo1) / tem5
            if fabs(tem5) >= 0.95 {
                tem5 = tem5 > 0.0 ? 0.95 : -0.95
            }
            eo1 = eo1 + tem5
            ktr += 1
        }

        // ---- short-period preliminary quantities ----
        let ecose = axnl * coseo1 + aynl * sineo1
        let esine = axnl * sineo1 - aynl * coseo1
        let el2 = axnl * axnl + aynl * aynl
        let pl = am * (1.0 - el2)
        if pl < 0.0 { throw .semiLatusRectum(pl) }

        let rl = am * (1.0 - ecose)
        let rdotl = sqrt(am) * esine / rl
        let rvdotl = sqrt(pl) / rl
        let betal = sqrt(1.0 - el2)
        temp = esine / (1.0 + betal)
        let sinu = am / rl * (sineo1 - aynl - axnl * temp)
        let cosu = am / rl * (coseo1 - axnl + aynl * temp)
        var su = atan2(sinu, cosu)
        let sin2u = (cosu + cosu) * sinu
        let cos2u = 1.0 - 2.0 * sinu * sinu
        temp = 1.0 / pl
        let temp1 = 0.5 * j2 * temp
        let temp2 = temp1 * temp

        // ---- update for short-period periodics ----
        if deepSpace != nil {
            let cosisq = cosip * cosip
            con41 = 3.0 * cosisq - 1.0
            x1mth2 = 1.0 - cosisq
            x7thm1 = 7.0 * cosisq - 1.0
        }
        let mrt = rl * (1.0 - 1.5 * temp2 * betal * con41) + 0.5 * temp1 * x1mth2 * cos2u
        su = su - 0.25 * temp2 * x7thm1 * sin2u
        let xnode = nodep + 1.5 * temp2 * cosip * sin2u
        let xinc = xincp + 1.5 * temp2 * cosip * sinip * cos2u
        let mvt = rdotl - nm * temp1 * x1mth2 * sin2u / xke
        let rvdot = rvdotl + nm * temp1 * (x1mth2 * cos2u + 1.5 * con41) / xke

        // ---- orientation vectors ----
        let sinsu = sin(su), cossu = cos(su)
        let snod = sin(xnode), cnod = cos(xnode)
        let sini = sin(xinc), cosi = cos(xinc)
        let xmx = -snod * cosi
        let xmy = cnod * cosi
        let ux = xmx * sinsu + cnod * cossu
        let uy = xmy * sinsu + snod * cossu
        let uz = sini * sinsu
        let vx = xmx * cossu - cnod * sinsu
        let vy = xmy * cossu - snod * sinsu
        let vz = sini * cossu

        // sgp4fix for decaying satellites.
        if mrt < 1.0 { throw .decayed(radius: mrt) }

        // ---- position (km) and velocity (km/s) ----
        let position = Vector3(x: (mrt * ux) * radius, y: (mrt * uy) * radius, z: (mrt * uz) * radius)
        let velocity = Vector3(x: (mvt * ux + rvdot * vx) * vkmpersec,
                               y: (mvt * uy + rvdot * vy) * vkmpersec,
                               z: (mvt * uz + rvdot * vz) * vkmpersec)
        return TEMEState(position: position, velocity: velocity)
    }
}
